"""The hosted language model: Gemini behind retries, its prompts, and answer synthesis."""

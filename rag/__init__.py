"""Ask plain-language questions of a relational table of documents: SQL, semantic search, or both."""

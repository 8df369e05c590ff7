"""Settings & About: the configuration in use (credentials masked, the API key never shown) and what the app does."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rag.settings import REGISTRY
from ui import engine
from ui import support as ui

engine.require_app()

started = engine.startup()
settings = started.settings

st.title("Settings & About")
if settings is None:
    st.error(ui.safe_answer_markdown(started.problem or "The settings could not be read."), icon=":material/error:")
    st.stop()

public = settings.public_dict()
assistant = started.assistant
provider = assistant.provider_label if assistant else settings.effective_provider

with st.container(horizontal=True):
    st.metric("Provider in use", provider, border=True)
    st.metric("Language model", settings.gemini_model if settings.effective_provider == "gemini" else "none (offline)",
              border=True)
    st.metric("Embedding model", settings.embed_model, border=True)
    st.metric("Top-k chunks", settings.top_k, border=True)
    st.metric("Chunks", f"{settings.chunk_tokens} word pieces, {settings.chunk_overlap} overlap", border=True)
    st.metric("Gemini API key", "present" if settings.google_api_key else "not set", border=True)

st.caption(f"Database: `{public['db_url']}` · table `{settings.table}`")
if assistant is not None:
    kept = (f"`{assistant.history.where}`, conversations kept {settings.app_store_retention_days} days after their "
            "last use" if settings.app_store_retention_days else f"`{assistant.history.where}`, kept until deleted")
    st.caption(f"Conversations, traces and feedback: {kept}" if assistant.history.enabled
               else "Conversations, traces and feedback: not stored (RAG_APP_STORE=off)")

st.subheader("Every setting", anchor=False)
st.dataframe(pd.DataFrame([{"setting": s.name, "environment variable": s.env, "value": str(public[s.name]),
                            "meaning": s.help} for s in REGISTRY]),
             hide_index=True, column_config={"meaning": st.column_config.TextColumn(width="large")})
st.caption("Set them as environment variables or in `.streamlit/secrets.toml` (the environment wins). "
           "The database URL is shown with its password masked; the API key only as present or not set.")

st.subheader("About", anchor=False)
st.markdown(
    "This assistant answers plain-language questions over one SQL table of documents. A router sends each "
    "question to **SQL** (counts, averages, listings), to **semantic search** over the text, or to a "
    "**hybrid** of both (SQL narrows the rows, semantic search runs only inside them).\n\n"
    "- Generated SQL runs only after a guard has parsed it and allowed a single read-only SELECT on known "
    "columns, with a row limit and a time limit; the database is opened read-only.\n"
    "- Retrieved text is shown as data: images, links, HTML, Streamlit directives and icons inside documents are "
    "never rendered, bidi control characters are shown as `‹U+202E›`, and chart labels are drawn as text.\n"
    "- Every answer keeps a full trace (route, SQL, filters, chunks, timings, LLM calls) you can inspect "
    "and download.\n"
    "- Without a Gemini API key everything runs offline; usage statistics are not sent "
    f"(`browser.gatherUsageStats = {str(st.get_option('browser.gatherUsageStats')).lower()}`).")

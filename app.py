"""Streamlit entry point: settings from the environment → cached assistant → navigation.

Run with `make run` (or `streamlit run app.py`). Every page reads state, calls `rag`, renders.
While a `pages/` directory exists, a fresh server runs a directly requested URL such as /data through
Streamlit's legacy directory mode, without this file; each page therefore starts with
`engine.require_app()`, which sends such a request here first.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # `streamlit run` adds it; AppTest and other runners may not
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui import engine  # noqa: E402
from ui.support import safe_answer_markdown  # noqa: E402

# An emoji favicon is drawn locally; a material-icon favicon would be fetched from fonts.gstatic.com.
# An integer sidebar state sets its width: the trace inspector needs room for SQL and chunk texts.
st.set_page_config(page_title="Table RAG · ask your table", page_icon="🗞️", layout="wide",
                   initial_sidebar_state=440)

started = engine.startup()
engine.mark_app_started()

chat = st.Page("pages/chat.py", title="Chat", icon=":material/forum:", default=True)
traces = st.Page("pages/traces.py", title="Traces", icon=":material/timeline:")
data = st.Page("pages/data.py", title="Data", icon=":material/database:")
about = st.Page("pages/settings.py", title="Settings & About", icon=":material/settings:")
pages = [chat, traces, data]
if engine.evaluation_available():
    pages.append(st.Page("pages/evaluation.py", title="Evaluation", icon=":material/fact_check:"))
pages.append(about)

if started.assistant is None:
    # Nothing can be answered without the table: explain what to do, keep Settings & About reachable.
    pages = [st.Page(engine.render_startup_problem, title="Setup needed", icon=":material/build:", default=True),
             about]
# The page menu is drawn here, not by Streamlit (.streamlit/config.toml, client.showSidebarNavigation), so a
# fresh server's first visitor never sees the legacy file-name menu and the sidebar opens at its set width.
current = st.navigation(pages, position="hidden")
with st.sidebar:
    for page in pages:
        st.page_link(page, width="stretch")
if started.assistant is not None and started.index_problem and current.title not in ("Data", "Settings & About"):
    with st.container(horizontal=True, vertical_alignment="center"):
        st.warning(f"**The search index is not ready.** {safe_answer_markdown(started.index_problem)} "
                   "Questions answered by SQL "
                   "still work; semantic and hybrid questions need the index.", icon=":material/warning:")
        st.page_link(data, label="Build it on the Data page", icon=":material/sync:")
current.run()

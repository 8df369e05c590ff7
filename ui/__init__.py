"""Streamlit building blocks shared by the pages; with app.py and pages/, the only code importing streamlit.

`engine` loads settings and the cached assistant; `components` renders turns, traces and charts. Pure
formatting logic lives in `ui.support` so it can be tested without Streamlit; Plotly escaping is in `ui.charts`.
"""

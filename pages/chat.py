"""Chat: ask questions, see answers with their route, table, chart and sources; inspect the trace in the sidebar."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from rag.models import Span, Turn
from ui import components, engine, history
from ui import support as ui

engine.require_app()

assistant = engine.assistant()
history.follow_url()  # ?chat=ID: the stored conversation comes back after a reload
turns = engine.chat_turns()  # this conversation's turns; engine.turns() keeps every turn of the session
conversation = engine.conversation()

source = assistant.source
profile = assistant.profile()
rows = assistant.row_noun
prompt = st.chat_input(f"Ask about the {rows} — counts, topics, or both…",
                       max_chars=assistant.settings.max_question_chars)
request = engine.take_pending() or ((prompt, None) if prompt else None)
notice = history.take_notice()
if notice:
    st.info(ui.escape_markdown(notice), icon=":material/history:")

if not turns and request is None:
    st.title("Ask the news archive" if assistant.settings.is_sample else f"Ask the {source.table} table",
             anchor=False)
    st.markdown(f"Ask plain-language questions about the **{profile.row_count:,}** {rows} of table "
                f"`{source.table}`. Each question goes to the right tool, and the sidebar shows how the answer "
                "was reached: the route and why, the SQL, the retrieved passages, timings and model calls. "
                "Follow-up questions build on the previous answer: " + ", ".join(
                    f"*{ui.escape_markdown(q)}*" for q in ui.follow_up_examples(
                        sample=assistant.settings.is_sample, date=source.roles.date,
                        values=sorted(profile.categories, key=lambda v: -profile.categories[v]),
                        latest_year=str(profile.date_max)[:4] if profile.date_max else None)))
    missing = assistant.missing_roles()
    if missing:  # say so before the user asks about dates or authors the table does not have (or we missed)
        with st.container(horizontal=True, vertical_alignment="center"):
            st.info(ui.missing_roles_text(missing), icon=":material/help:")
            st.page_link("pages/data.py", label="Column roles on the Data page", icon=":material/database:")
    examples_by_route = ui.example_questions(
        sample=assistant.settings.is_sample, rows=rows, category=source.roles.category,
        values=sorted(profile.categories, key=lambda v: -profile.categories[v]), date=source.roles.date,
        latest_year=str(profile.date_max)[:4] if profile.date_max else None)
    every_example = [q for questions in examples_by_route.values() for q in questions]
    for column, (route, examples) in zip(st.columns(3), examples_by_route.items(), strict=True):
        with column, st.container(border=True, height="stretch"):
            components.route_badge(route)
            st.caption(ui.ROUTE_BLURBS[route])
            for example in examples:
                number = every_example.index(example)
                st.button(example, key=f"example_{number}", on_click=engine.queue_question, args=(example,),
                          icon=":material/chat_bubble:", type="tertiary")

for number, turn in enumerate(turns, start=1):
    with st.chat_message("user"):
        st.markdown(ui.escape_markdown(turn.question))
    with st.chat_message("assistant"):
        components.render_turn(turn, number)

edit = engine.take_edit()
again = engine.take_again()  # 'ask again as': (turn, route)


def answer_live(heading: str, label: str, run: Callable[[Callable[[Span], None], Callable[[str], None]], Turn]) -> None:
    """Show `heading` as the user's message, answer with live steps (and a streamed answer), keep the turn."""
    with st.chat_message("user"):
        st.markdown(heading)
    with st.chat_message("assistant"):
        with st.status(label, expanded=True) as status:
            live = st.empty()
            steps: list[str] = []

            def show_step(span: Span) -> None:
                steps.append(ui.step_line(span))
                live.markdown("\n".join(f"- {ui.escape_markdown(line)}" for line in steps))

            streamed = st.empty()
            turn = run(show_step, lambda text: streamed.markdown(ui.safe_answer_markdown(text) + " ▌"))
            live.empty()
            streamed.empty()
        engine.turns().append(turn)
        turns.append(turn)
        history.save_turn(turn, len(turns))
        engine.inspect(turn.id)
        components.render_turn(turn, len(turns), status=status)


if request is not None:
    question, route = request
    forced = f" as {ui.route_label(route)}" if route else ""
    answer_live(ui.escape_markdown(question), f"Answering{forced}: routing, SQL, guard, retrieval, synthesis…",
                lambda on_step, on_token: assistant.ask(question, route=route, on_step=on_step, on_token=on_token,
                                                        conversation=conversation))
elif edit is not None:
    edited_turn, change = edit
    number = turns.index(edited_turn) + 1
    answer_live(f"_Edit of #{number}:_ {ui.escape_markdown(edited_turn.question)}", "Answering the edited reading…",
                lambda on_step, _on_token: assistant.rerun(edited_turn, change, on_step=on_step,
                                                           conversation=conversation))
elif again is not None:
    again_turn, route = again
    mark = f"#{turns.index(again_turn) + 1} " if again_turn in turns else ""
    label = ui.route_label(route)
    answer_live(f"_{mark}again as {label}:_ {ui.escape_markdown(again_turn.question)}", f"Answering again as {label}…",
                lambda on_step, on_token: assistant.ask_again(again_turn, route, on_step=on_step, on_token=on_token,
                                                              conversation=conversation))

with st.sidebar:
    st.button("New chat", key="new_conversation", icon=":material/add_comment:", disabled=not turns,
              on_click=history.new_chat, width="stretch",
              help="Start over with the example questions: later questions no longer build on these answers "
                   "(they stay stored, on the Traces page)")
    if assistant.history.enabled:
        st.toggle("Keep this chat", value=True, key=history.KEEP_KEY,
                  help="Off: the next answers are not stored (a reload will not bring them back and they are not "
                       "on the Traces page); turn it on again to keep the following ones")
    recent = history.recent()
    if recent:
        with st.popover("Recent chats", icon=":material/history:", width="stretch"):
            for conversation_id, label in recent.items():
                st.button(ui.escape_markdown(label, one_line=True), key=f"recent_{conversation_id}", type="tertiary",
                          disabled=conversation_id == history.current_id(), on_click=history.open_conversation,
                          args=(conversation_id,))
    if history.current_id():
        st.button("Delete this chat", key="delete_chat", icon=":material/delete:", type="tertiary",
                  on_click=history.delete_chat, help="Remove this conversation, its traces and feedback from the store")
    st.subheader("Trace inspector", anchor=False)
    if not turns:
        st.caption("Ask a question to see its route, SQL, retrieved chunks, timings and LLM calls here.")
    else:
        ids = [t.id for t in turns]
        if st.session_state.get(engine.INSPECT_KEY) not in ids:
            st.session_state[engine.INSPECT_KEY] = ids[-1]
        labels = {t.id: ui.turn_title(t, n) for n, t in enumerate(turns, start=1)}
        selected = st.selectbox("Turn", ids, key=engine.INSPECT_KEY, format_func=labels.get)
        components.render_trace(engine.find_turn(selected) or turns[-1], key="sidebar")

"""A small support-ticket table: a second schema for the evaluation harness (no `rag` import here).

    python eval/tickets/generate.py tickets.db          # build the SQLite file (replaces it)
    python eval/tickets/generate.py --check             # dev.yaml sql_result vs independent computation
    python eval/tickets/generate.py --fill              # rewrite dev.yaml's sql_result values

A dev case not computed below may state a `reference_sql` instead: its sql_result must be exactly that
query's output on a fresh build of the table (floats rounded to 2 decimals, one cell as {value: x}).

Columns: ticket_id INTEGER PRIMARY KEY, subject, body, opened_at ('YYYY-MM-DD HH:MM:SS'), status,
priority, assignee. Sixty-one tickets, written by hand: each has its own problem statement, and a
reporter's context, impact and closing lines chosen deterministically from small pools, so bodies run
60-200 words and read like real tickets. Everything is fixed: the same file every time.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "dev.yaml"

DDL = ("CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, subject TEXT NOT NULL, body TEXT NOT NULL, "
       "opened_at TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL, assignee TEXT)")

# (opened_at, status, priority, assignee, subject, problem statement)
TICKETS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("2024-01-03 09:12:00", "closed", "high", "Maya Lindqvist", "Cannot reset password from the login page",
     "When I click 'Forgot password' on the login page nothing happens for about ten seconds and then the page "
     "reloads without sending any email. I tried three times with my work address and checked the spam folder. "
     "My colleague on the same team had the same problem yesterday, so I do not think it is just my account."),
    ("2024-01-05 14:40:00", "closed", "normal", "Omar Haddad", "Invoice for December charged twice",
     "Our company card was charged twice for the December invoice, once on the 1st and again on the 3rd, both "
     "for 1,240 euros. The billing page only shows one invoice number. Please refund the duplicate payment and "
     "confirm in writing so our accountant can close the month."),
    ("2024-01-08 08:05:00", "resolved", "urgent", "Tom Becker", "VPN drops every few minutes since client update",
     "Since the VPN client updated itself to version 5.2 on Friday, the connection drops every three to five "
     "minutes and reconnects on its own. Video calls freeze and large file copies to the shared drive fail "
     "half way. Rolling back is blocked by policy on our laptops."),
    ("2024-01-10 11:30:00", "closed", "low", "Grace Okafor", "Request to enable dark mode in the web app",
     "Several people in our design team work late and would like a dark theme for the web app. The mobile app "
     "already has one, so we assumed it would be a simple switch. Is this on the roadmap, and is there a "
     "browser setting we could use in the meantime?"),
    ("2024-01-12 16:20:00", "closed", "normal", "Priya Natarajan", "CSV export of orders is missing the last column",
     "When I export the orders list to CSV, the file stops at the 'shipping method' column; the 'delivery "
     "notes' column that we see on screen is not there. We use that column in a spreadsheet for the "
     "warehouse every morning, so right now someone copies the notes by hand."),
    ("2024-01-15 10:02:00", "resolved", "high", "Maya Lindqvist", "Two-factor codes arrive after they expire",
     "Text messages with the two-factor login code reach my phone two or three minutes after I request them, "
     "by which time the code has already expired. This happens on two different mobile networks. I can only "
     "log in by requesting codes repeatedly until one arrives in time."),
    ("2024-01-17 13:45:00", "closed", "normal", "Omar Haddad", "Need to add five more licence seats",
     "We are onboarding five new analysts next month and need five more seats on our plan. The admin page "
     "says to contact support for plans with annual billing. Please tell us the pro-rated price for the rest "
     "of the contract year and whether the seats can be active from the 1st."),
    ("2024-01-19 09:30:00", "closed", "high", "Tom Becker", "Mobile app crashes when opening attachments",
     "The Android app closes without any message whenever I tap a PDF attachment on a ticket. Images open "
     "fine. I reinstalled the app and cleared its cache. The same PDF opens normally in the web app, so the "
     "file itself seems fine."),
    ("2024-01-22 15:10:00", "closed", "normal", "Grace Okafor", "Slack notifications stopped after workspace rename",
     "We renamed our Slack workspace last week and since then no notifications from your integration arrive "
     "in our support channel. The integration page still shows 'connected'. Do we need to reinstall it, and "
     "will we lose the channel mappings if we do?"),
    ("2024-01-24 11:55:00", "resolved", "low", "Priya Natarajan", "Report timestamps shown in the wrong time zone",
     "All times in the weekly activity report are one hour behind what we see in the app. Our account time "
     "zone is set to Central European Time and my profile too. It looks as if the report is using UTC "
     "regardless of the settings."),
    ("2024-01-29 08:40:00", "closed", "urgent", "Maya Lindqvist", "Whole team locked out after SSO certificate change",
     "This morning our identity team rotated the SAML signing certificate and now nobody can log in through "
     "single sign-on; the login page shows 'invalid response signature'. We uploaded the new certificate in "
     "the admin console but it still fails. Forty people cannot work."),
    ("2024-02-01 10:15:00", "closed", "normal", "Omar Haddad", "Refund for cancelled annual plan",
     "We cancelled our annual plan within the fourteen-day window after the renewal but have not received the "
     "refund yet. The cancellation confirmation email is attached. Could you tell us when the money will be "
     "returned to the card?"),
    ("2024-02-02 14:25:00", "resolved", "high", "Maya Lindqvist", "Login loop on Safari after password change",
     "After changing my password, logging in on Safari sends me straight back to the login page, over and "
     "over. Chrome on the same Mac works. I cleared cookies for the site and restarted the browser. It "
     "started right after the password change."),
    ("2024-02-06 09:05:00", "closed", "normal", "Tom Becker", "Printer labels cut off at the bottom",
     "Shipping labels printed from the dispatch screen lose the bottom two centimetres, including the "
     "barcode, so couriers cannot scan them. We print on a Zebra thermal printer with 100 by 150 millimetre "
     "labels. It worked until the layout change in January."),
    ("2024-02-08 16:50:00", "closed", "high", "Grace Okafor", "API returns 429 errors well below our rate limit",
     "Our nightly sync job gets HTTP 429 'too many requests' after about 200 calls, although our plan "
     "allows 1,000 requests per minute and we pace the calls at one per second. The errors started on "
     "Monday. The response headers show a limit of 200."),
    ("2024-02-12 11:20:00", "resolved", "normal", "Priya Natarajan", "Dashboard takes a minute to load",
     "The main dashboard now takes between forty and sixty seconds to load for everyone in our account; "
     "it used to appear in two or three seconds. Other pages are fast. We have about 30,000 tickets, which "
     "has not changed much recently."),
    ("2024-02-14 08:35:00", "closed", "high", "Maya Lindqvist", "Account locked after too many login attempts",
     "A new starter typed an old password several times and her account is now locked. The message says to "
     "wait thirty minutes but it has been two hours. She cannot reset the password because the reset link "
     "says the account is locked."),
    ("2024-02-16 13:00:00", "closed", "low", "Omar Haddad", "VAT number missing on invoices",
     "Our VAT number does not appear on the invoices although it is filled in on the billing profile. Our "
     "auditors need it on every invoice. Can you reissue the invoices from January and February with the "
     "number included?"),
    ("2024-02-20 10:45:00", "resolved", "urgent", "Tom Becker", "VPN will not connect from the Lisbon office",
     "Nobody in the Lisbon office can connect to the VPN since this morning; the client stops at "
     "'authenticating' and times out. People working from home in Portugal connect normally, so it may be "
     "the office network or a blocked port."),
    ("2024-02-22 15:30:00", "closed", "normal", "Grace Okafor", "Webhook deliveries failing with timeouts",
     "Webhook deliveries to our endpoint fail with 'timeout after 5 seconds' in the delivery log. Our endpoint "
     "answers in under a second when we test it with curl. About a third of the events never reach us, so our "
     "order system misses updates."),
    ("2024-02-26 09:50:00", "closed", "normal", "Maya Lindqvist", "Cannot log in with Google account",
     "The 'Sign in with Google' button shows an error page saying the redirect address does not match. Normal "
     "email and password login works. Several colleagues who always use Google sign-in are affected since "
     "Friday."),
    ("2024-02-28 14:05:00", "resolved", "low", "Priya Natarajan", "Add a filter for tickets without an assignee",
     "It would help our team lead to filter the ticket list to show only unassigned tickets. Today she sorts "
     "by assignee and scrolls to the bottom. Is such a filter possible, or can we save a view that does it?"),
    ("2024-03-01 08:20:00", "closed", "high", "Omar Haddad", "Charged for seats we removed",
     "We removed eight seats in January but the March invoice still charges for them. The admin page shows "
     "the correct number of users. Please correct the invoice and credit the difference for February as "
     "well."),
    ("2024-03-04 11:40:00", "closed", "normal", "Tom Becker", "iOS app crashes on launch after update",
     "After updating the iPhone app to the latest version it crashes immediately on launch, before the login "
     "screen appears. This happens on an iPhone 12 and an iPhone 14, both on iOS 17. Reinstalling did not "
     "help."),
    ("2024-03-06 16:15:00", "resolved", "normal", "Grace Okafor", "Calendar sync creates duplicate events",
     "Since we connected Outlook, every appointment booked through the portal appears twice in our "
     "calendars. Deleting one copy deletes both. It started after we reconnected the calendar when the token "
     "expired."),
    ("2024-03-08 09:25:00", "closed", "low", "Priya Natarajan", "Question about data retention period",
     "Our legal team asks how long closed tickets and their attachments are kept, and whether we can set a "
     "shorter retention period for attachments only. Is there documentation we can send them?"),
    ("2024-03-11 13:35:00", "resolved", "urgent", "Maya Lindqvist", "Password reset emails not arriving for any user",
     "No password reset email arrives for anyone in our company since this morning, for any address. We "
     "checked quarantine on our mail gateway and there is nothing there. New users cannot set their first "
     "password, which blocks onboarding today."),
    ("2024-03-13 10:10:00", "closed", "normal", "Omar Haddad", "Upgrade from Team to Business plan",
     "We would like to move from the Team plan to the Business plan to get single sign-on. Can the upgrade "
     "happen mid-cycle, and will the remaining Team balance be credited against the new price?"),
    ("2024-03-15 15:45:00", "closed", "high", "Tom Becker", "File upload fails for files over 20 MB",
     "Uploading any attachment larger than about 20 MB fails with a generic 'upload error' after the progress "
     "bar reaches 100 percent. Our engineers send log files of 50 to 80 MB. The documentation says the limit "
     "is 100 MB."),
    ("2024-03-19 08:55:00", "resolved", "normal", "Grace Okafor", "Email notifications go to spam in Outlook",
     "Ticket notification emails land in the junk folder for everyone on Outlook, while Gmail users receive "
     "them normally. Our IT team says the messages fail the DMARC check. Could you check the sending domain "
     "configuration?"),
    ("2024-03-21 12:30:00", "closed", "low", "Priya Natarajan", "Typo in the Spanish customer portal",
     "In the Spanish version of the customer portal the button on the feedback form says 'Envair' instead of "
     "'Enviar'. A small thing, but customers have mentioned it twice."),
    ("2024-03-25 10:00:00", "closed", "normal", "Maya Lindqvist", "Session expires every fifteen minutes",
     "Users are logged out after fifteen minutes even while they are typing a reply, and lose the text. Our "
     "session timeout setting is eight hours. This started this week for all users in our account."),
    ("2024-03-27 14:50:00", "resolved", "high", "Tom Becker", "VPN split tunnelling sends all traffic through office",
     "With the new VPN profile, all internet traffic goes through the office connection instead of only "
     "company addresses, so video calls are slow and the office line is saturated. The old profile only "
     "routed internal networks."),
    ("2024-04-02 09:15:00", "closed", "normal", "Omar Haddad", "Credit card update fails on billing page",
     "Entering our new company card on the billing page fails with 'card could not be verified' although the "
     "bank says no verification attempt reached them. The old card expires at the end of the month."),
    ("2024-04-04 11:05:00", "closed", "normal", "Grace Okafor", "Data export to CSV times out for large date ranges",
     "Exporting all tickets for the last year to CSV stops after two minutes with a timeout. Exporting one "
     "month at a time works, but we need a full year for our annual review. Is there a way to run the export "
     "in the background?"),
    ("2024-04-08 16:35:00", "resolved", "low", "Priya Natarajan", "Keyboard shortcut for closing a ticket",
     "Is there a keyboard shortcut to close a ticket and move to the next one? Our agents handle hundreds of "
     "short tickets a day and the mouse clicks add up."),
    ("2024-04-10 08:45:00", "closed", "high", "Maya Lindqvist", "Two-factor authentication app codes rejected",
     "Codes from our authenticator app are rejected as invalid for three users, although the app clock is "
     "correct. Other users are fine. Removing and re-adding the account in the app did not help."),
    ("2024-04-12 13:20:00", "closed", "normal", "Tom Becker", "Android app shows blank screen on tablets",
     "On our Samsung tablets the Android app shows a blank white screen after login. Phones work. The tablets "
     "run Android 13 and are managed by our device management system."),
    ("2024-04-16 10:30:00", "resolved", "normal", "Omar Haddad", "Wrong currency on quote documents",
     "Quotes generated for our UK customers show prices in euros instead of pounds, although the customer "
     "records are set to GBP. Invoices are correct; only the quotes are wrong."),
    ("2024-04-18 15:00:00", "closed", "urgent", "Grace Okafor", "Webhooks stopped entirely after IP change",
     "Since your announced infrastructure change, no webhooks reach us at all. Our firewall only allows your "
     "published IP addresses. Did the addresses change, and where is the current list?"),
    ("2024-04-22 09:40:00", "closed", "low", "Tom Becker", "Request for a sandbox account",
     "Our developers want a sandbox account to test the API without touching live data. Is this included in "
     "the Business plan, and how do we request one?"),
    ("2024-04-24 12:15:00", "resolved", "high", "Maya Lindqvist", "Login page shows a certificate warning",
     "Browsers show a certificate warning on the login page of our custom domain support.example-retail.com. "
     "The certificate seems to have expired yesterday. Customers think the site is unsafe."),
    ("2024-04-26 14:00:00", "closed", "normal", "Tom Becker", "Search does not find tickets by order number",
     "Searching for an order number that appears in the ticket body returns no results, while searching for "
     "words from the subject works. We rely on order numbers to find customer conversations."),
    ("2024-04-30 10:50:00", "resolved", "normal", "Omar Haddad", "Annual invoice sent to the wrong contact",
     "The annual invoice went to a former employee's address instead of our accounts payable mailbox, which "
     "is set as the billing contact. Please resend it and check why the old contact was used."),
    ("2024-05-02 09:00:00", "open", "high", "Tom Becker", "iPad app crashes when switching accounts",
     "The iPad app crashes every time I switch from my personal account to the team account. I have to "
     "reopen the app and log in again. It happens on two iPads on the latest version."),
    ("2024-05-06 11:25:00", "closed", "normal", "Grace Okafor", "Reports export to PDF has overlapping text",
     "PDF exports of the monthly report have overlapping text in the chart legends, which makes them "
     "unreadable when printed. The same report looks fine on screen."),
    ("2024-05-08 15:40:00", "resolved", "urgent", "Maya Lindqvist", "Single sign-on fails for new employees",
     "New employees added to our identity provider this week cannot log in through single sign-on; they get "
     "'user not provisioned'. Existing users are fine. Automatic provisioning is switched on."),
    ("2024-05-10 08:30:00", "pending", "normal", "Priya Natarajan", "Cannot delete an old customer record",
     "We need to delete a customer record under a data protection request, but the delete button is greyed "
     "out with the message 'record has linked tickets'. How do we remove the record and its tickets "
     "completely?"),
    ("2024-05-14 13:10:00", "resolved", "high", "Tom Becker", "VPN certificate expired on company laptops",
     "All company laptops show 'VPN certificate expired' since midnight and cannot connect. A few people who "
     "were connected overnight are still online. We need a new certificate pushed or instructions."),
    ("2024-05-16 10:20:00", "open", "normal", "Omar Haddad", "Discount not applied to renewal invoice",
     "Our renewal invoice does not include the 15 percent discount agreed with your sales team in March. The "
     "email with the agreement is attached. Please issue a corrected invoice before the payment date."),
    ("2024-05-21 16:05:00", "pending", "low", "Grace Okafor", "Custom fields missing in API response",
     "Custom fields that we added to tickets last month are not included in the API response for the ticket "
     "endpoint, although the documentation says they should be under 'custom_fields'."),
    ("2024-05-23 09:35:00", "resolved", "high", "Maya Lindqvist", "Password reset link says token invalid",
     "Password reset links open a page saying 'token invalid or expired', even when clicked within a minute "
     "of the email arriving. This affects users who open the email on their phones."),
    ("2024-05-28 14:45:00", "open", "urgent", "Tom Becker", "Android app crashes after latest update",
     "Since yesterday's update, the Android app crashes as soon as a ticket list loads. About sixty field "
     "technicians use the app and now cannot see their jobs. Phones are Android 12 to 14."),
    ("2024-05-30 11:00:00", "pending", "normal", "Priya Natarajan", "Data export missing attachments",
     "The full data export we requested contains the tickets but none of the attachments, although the export "
     "option 'include attachments' was ticked. We need the attachments for an archive."),
    ("2024-06-03 08:50:00", "open", "high", "Grace Okafor", "Slack integration posts to the wrong channel",
     "Notifications from your Slack integration appear in our general channel instead of the support channel "
     "configured in the mapping. Customers' names are visible to the whole company, which is a privacy "
     "problem."),
    ("2024-06-06 12:40:00", "resolved", "normal", "Omar Haddad", "Receipts needed for expense reports",
     "Our finance team needs individual receipts for each monthly payment since January for expense "
     "reporting; the billing page only lists invoices. Can receipts be downloaded or emailed?"),
    ("2024-06-11 10:15:00", "open", "normal", "Maya Lindqvist", "Locked out after changing phone",
     "I replaced my phone and my authenticator app codes are gone, so I cannot log in. My recovery codes "
     "were on the old phone too. What identity checks do you need to reset two-factor authentication?"),
    ("2024-06-14 15:20:00", "pending", "low", "Priya Natarajan", "Bulk edit of ticket tags",
     "Is it possible to change the tag on many tickets at once? We renamed a product and would like to "
     "retag about 900 old tickets rather than edit them one by one."),
    ("2024-06-19 09:10:00", "open", "high", "Tom Becker", "Mobile app crashes when uploading photos",
     "Field staff report that the mobile app crashes when they attach more than two photos to a ticket. "
     "Single photos upload fine. It happens on both iPhone and Android."),
    ("2024-06-24 13:55:00", "open", "normal", "Grace Okafor", "Dashboard charts show no data for June",
     "All charts on the dashboard are empty for June, although there are hundreds of tickets this month. May "
     "and earlier months display normally."),
    ("2024-06-28 10:30:00", "open", "urgent", "Omar Haddad", "Payment failed and account suspended",
     "Our monthly payment failed because of a bank error and the account was suspended this morning, "
     "blocking all agents. The bank has fixed the problem. Please reactivate the account and retry the "
     "payment today."),
)

CONTEXT = (
    "I am writing on behalf of our customer service team of twelve agents.",
    "We are on the Business plan and use the tool every working day.",
    "Our office is in Rotterdam and most of our users work in Central European Time.",
    "This affects our operations team, who rely on the tool for every customer conversation.",
    "I am the account administrator for our company.",
    "We have been customers for three years and have not seen this before.",
    "Our IT department has already checked our side and found nothing unusual.",
)

IMPACT = (
    "It is not blocking everyone, but it costs us time every day and people have started to work around it.",
    "We first noticed it at the start of the week and it has happened every day since.",
    "I have attached a screenshot that shows exactly what we see.",
    "If there is a workaround we can use until it is fixed, please send it and I will share it with the team.",
    "Nothing changed on our side as far as we know, and the problem is the same for colleagues in other teams.",
    "It would be good to have this settled before the end of the month.",
    "Our team lead asked me to open a ticket so that the problem is on record.",
)

CLOSING = (
    "Please let me know if you need screenshots or logs. Thanks, Anna",
    "We would appreciate an update today if possible. Best regards, Jonas",
    "Happy to join a call to show the problem. Kind regards, Lucia",
    "Thank you for your help. Pieter",
    "Please treat this with priority, as several colleagues are waiting. Regards, Sam",
    "Let me know what other information you need. Thanks, Ewa",
)


def ticket_rows() -> list[dict[str, Any]]:
    """The tickets as dicts, ids 1..61 in order of opening."""
    rows = []
    for number, (opened_at, status, priority, assignee, subject, problem) in enumerate(TICKETS, start=1):
        body = (f"{CONTEXT[number % len(CONTEXT)]} {problem} {IMPACT[(number * 3) % len(IMPACT)]}\n\n"
                f"{CLOSING[(number * 5) % len(CLOSING)]}")
        rows.append({"ticket_id": number, "subject": subject, "body": body, "opened_at": opened_at,
                     "status": status, "priority": priority, "assignee": assignee})
    return rows


def build_tickets_db(path: str | Path) -> int:
    """Create (or replace) a SQLite file with table `tickets`; returns the row count."""
    path = Path(path)
    path.unlink(missing_ok=True)
    rows = ticket_rows()
    connection = sqlite3.connect(path)
    try:
        with connection:
            connection.execute(DDL)
            connection.executemany(
                "INSERT INTO tickets VALUES (:ticket_id, :subject, :body, :opened_at, :status, :priority, :assignee)",
                rows)
    finally:
        connection.close()
    return len(rows)


# ---------------------------------------------------------------- expected results, computed independently


def _day(row: dict[str, Any]) -> date:
    return date.fromisoformat(row["opened_at"][:10])


def _subjects(rows: list[dict[str, Any]]) -> list[list[Any]]:
    return [[r["subject"]] for r in rows]


def _rolling_months(rows: list[dict[str, Any]], months: int) -> tuple[date, date]:
    today = max(_day(r) for r in rows)
    index = today.year * 12 + today.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, today.day) + timedelta(days=1), today


def _top_assignee(rows: list[dict[str, Any]]) -> list[list[Any]]:
    counts = Counter(r["assignee"] for r in rows).most_common()
    return [[name, n] for name, n in counts if n == counts[0][1]]


EXPECTED: dict[str, Callable[[list[dict[str, Any]]], Any]] = {
    "t-count-all": lambda rs: {"value": len(rs)},
    "t-per-status": lambda rs: [[s, n] for s, n in sorted(Counter(r["status"] for r in rs).items())],
    "t-per-month": lambda rs: [[m, n] for m, n in sorted(Counter(r["opened_at"][:7] for r in rs).items())],
    "t-count-open": lambda rs: {"value": sum(r["status"] == "open" for r in rs)},
    "t-by-assignee": lambda rs: _subjects([r for r in rs if r["assignee"] == "Omar Haddad"]),
    "t-count-assignee": lambda rs: {"value": sum(r["assignee"] == "Tom Becker" for r in rs)},
    "t-top-assignee": _top_assignee,
    "t-latest-5": lambda rs: _subjects(sorted(rs, key=lambda r: r["opened_at"], reverse=True)[:5]),
    "t-march": lambda rs: _subjects([r for r in rs if r["opened_at"].startswith("2024-03")]),
    "t-last-2-months-count": lambda rs: {"value": sum(_rolling_months(rs, 2)[0] <= _day(r) for r in rs)},
}


def _fresh_copy() -> sqlite3.Connection:
    """An in-memory copy of a fresh build of the table, for the cases defined by their reference SQL."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tickets.db"
        build_tickets_db(path)
        source, copy = sqlite3.connect(path), sqlite3.connect(":memory:")
        source.backup(copy)
        source.close()
    return copy


def check(fill: bool = False) -> int:
    sys.path.insert(0, str(HERE.parent / "news"))
    from make_expected import dump_cases, reference_result  # the same YAML layout and rounding as the sample set

    rows = ticket_rows()
    document = yaml.safe_load(CASES.read_text(encoding="utf-8"))
    subjects = {r["subject"] for r in rows}
    problems = [f"{cid}: computed here but not in dev.yaml" for cid in
                sorted(set(EXPECTED) - {c["id"] for c in document["cases"]})]
    connection = _fresh_copy()
    for case in document["cases"]:
        for item in case.get("relevant") or []:
            if item not in subjects:
                problems.append(f"{case['id']}: relevant {item!r} is not a ticket subject")
        if case["id"] in EXPECTED:
            expected = json.loads(json.dumps(EXPECTED[case["id"]](rows)))
            if fill:
                case["sql_result"] = expected
            elif case.get("sql_result") != expected:
                problems.append(f"{case['id']}: sql_result {case.get('sql_result')!r} != computed {expected!r}")
        elif "reference_sql" in case:
            try:
                expected = reference_result(connection, case["reference_sql"], case.get("sql_result"))
            except (sqlite3.Error, ValueError) as error:
                problems.append(f"{case['id']}: reference_sql fails: {error}")
                continue
            if fill:
                case["sql_result"] = expected
            elif case.get("sql_result") != expected:
                problems.append(f"{case['id']}: sql_result {case.get('sql_result')!r} != reference {expected!r}")
        elif "sql_result" in case:
            problems.append(f"{case['id']}: has sql_result but no computation here")
    connection.close()
    if fill:
        CASES.write_text(dump_cases(document), encoding="utf-8")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="SQLite file to build")
    parser.add_argument("--check", action="store_true", help="check dev.yaml against the computed results")
    parser.add_argument("--fill", action="store_true", help="rewrite dev.yaml's sql_result values")
    args = parser.parse_args(argv)
    if args.out:
        print(f"built {args.out}: {build_tickets_db(args.out)} tickets")
    if args.check or args.fill:
        return check(fill=args.fill)
    if not args.out:
        parser.error("give an output file, --check or --fill")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Evaluation: question sets (`cases`), pure metrics (`metrics`), the runner and the report.

The names below are the package's public face, used by the CLI and the Evaluation page.
"""

from rag.evaluation.cases import DEFAULT_CASES, Case, CaseFileError, CaseSet, load_cases, parse_cases
from rag.evaluation.report import EvalReport, summary_markdown, write_report
from rag.evaluation.runner import CaseResult, run_eval

__all__ = ["DEFAULT_CASES", "Case", "CaseFileError", "CaseResult", "CaseSet", "EvalReport", "load_cases",
           "parse_cases", "run_eval", "summary_markdown", "write_report"]

"""Every error reason the service can return, and every settlement line id, has its words.

The reasons are found in the code itself (every `ServiceError`, `precondition` and `invalid`
call, and every reason a rule check returns), so a reason added anywhere without labels in
all five catalogues fails here.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tarok_service
from tarok_service.engine import match
from tarok_service.server.present import render
from tarok_service.server.present.i18n import LOCALES, Labels
from tarok_service.variants import vocabulary as v
from tarok_service.variants.registry import all_variants

PACKAGE = Path(tarok_service.__file__).resolve().parent
# Where each error helper takes its reason: (positional index, keyword).
REASON_ARG = {
    "ServiceError": (1, "reason"),
    "precondition": (0, "reason"),
    "invalid": (2, "reason"),
}
# Reasons passed on from elsewhere: a helper's own parameter, a rule check's refusal.
PASSED_ON = {"reason", "err.reason"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _reason_expr(call: ast.Call) -> ast.expr | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in REASON_ARG:
        return None
    index, keyword = REASON_ARG[name]
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[index] if len(call.args) > index else None


def _is_reason(value: object) -> bool:
    return isinstance(value, str) and "_" in value and bool(render._REASON.match(value))


def raised_reasons() -> tuple[set[str], set[str]]:
    """(reasons the code raises or a rule check returns or names as a constant, reason
    expressions passed on from elsewhere)."""
    found: set[str] = set()
    passed_on: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = None
        rules = path.parent.name in ("engine", "variants")  # a rule check returns its reason
        for node in ast.walk(tree):
            if isinstance(node, ast.Return) and node.value is not None and rules:
                found |= {
                    str(x.value)
                    for x in ast.walk(node.value)
                    if isinstance(x, ast.Constant) and _is_reason(x.value)
                }
            if isinstance(node, ast.Assign) and rules and isinstance(node.value, ast.Constant):
                names = [x.id for x in node.targets if isinstance(x, ast.Name)]
                if _is_reason(node.value.value) and node.value.value in names:
                    found.add(str(node.value.value))
            if not isinstance(node, ast.Call):
                continue
            expr = _reason_expr(node)
            if expr is None:
                continue
            if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
                found.add(expr.value)
                continue
            module = module or importlib.import_module(_module_name(path))
            try:
                value = eval(compile(ast.Expression(expr), str(path), "eval"), vars(module))
            except (NameError, AttributeError):
                passed_on.add(ast.unparse(expr))
                continue
            assert isinstance(value, str), (path, ast.unparse(expr))
            found.add(value)
    return found, passed_on


def test_every_reason_the_code_can_return_is_in_the_reason_vocabulary() -> None:
    found, passed_on = raised_reasons()
    assert {"TOURNAMENT_OVER", "CONTENTION", "ILLEGAL_MOVE", "WRONG_PHASE"} <= found
    assert passed_on <= PASSED_ON
    assert sorted(found - set(render.reasons())) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_every_reason_has_a_label_in_every_locale(locale: str) -> None:
    words = Labels(locale)
    found, _ = raised_reasons()
    missing = [r for r in sorted({*render.reasons(), *found}) if not words.has(f"reason.{r}")]
    assert missing == []


def test_every_settlement_line_id_is_in_a_vocabulary_with_labels() -> None:
    ids = {x for name, x in vars(match).items() if name.isupper() and isinstance(x, str)}
    listed = {x for variant in all_variants() for x in v.vocabulary(variant)[v.SETTLEMENT]}
    assert ids == listed
    for locale in LOCALES:
        assert [x for x in sorted(ids) if not Labels(locale).has(f"settlement.{x}")] == []
    assert Labels("sl").term(v.SETTLEMENT, match.ZID_PAYMENT) == "Plačilo v žid"

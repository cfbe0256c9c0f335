"""A call's deadline: the tool's own, stretched to fit a longer whole-call budget the call asks for."""

from __future__ import annotations

from sofia.providers.composer.check import Params as CheckParams
from sofia.providers.packagist.status import Params as StatusParams
from sofia.providers.registry import by_name
from sofia.server.app import call_timeout


def test_a_tool_without_budget_keeps_its_own_deadline() -> None:
    from sofia.providers.changed import Params

    assert call_timeout(120.0, Params()) == 120.0


def test_a_longer_budget_stretches_the_deadline_past_it() -> None:
    check = by_name("composer_check")
    assert check is not None
    assert call_timeout(check.timeout, CheckParams()) > CheckParams().budget_s
    assert call_timeout(check.timeout, CheckParams(budget_s=7200)) == 7260.0
    status = by_name("packagist_status")
    assert status is not None
    assert call_timeout(status.timeout, StatusParams(budget_s=300)) == 360.0
    assert call_timeout(status.timeout, StatusParams(budget_s=5)) == status.timeout

"""Found by the audit guard (tests/audit_guard.py, issue #19): extending the appeal period wrote
its DeadlineExtension with no audit entry."""

import pytest

from audit.models import AuditEntry
from tests import audit_guard

pytestmark = pytest.mark.django_db(transaction=True)


def test_extending_the_appeal_period_is_audited(case):
    from appeals import services
    from tests.appeals.conftest import DEADLINE, at

    services.extend_deadline(ruling=case.ruling, by=case.chief, until=at(90), reason="Posted late", now=at(40))
    entry = AuditEntry.objects.get(action="ruling.appeal_period_extended")
    assert entry.object_id == str(case.ruling.pk) and entry.actor == case.chief
    assert entry.before == {"deadline": DEADLINE.isoformat()}
    assert entry.after == {"until": at(90).isoformat(), "reason": "Posted late"}
    assert audit_guard.take_offences() == []

"""The audit trail: every change to the record, chained by hashes so that an edit made behind
the application's back shows.

Each entry's hash covers its own content and the previous entry's hash; ``verify_audit``
recomputes the chain and names the first entry that does not match.
"""

import hashlib
import json

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.texts import english, render

GENESIS = "0" * 64


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("Audit entries cannot be changed.")

    def delete(self):
        raise PermissionError("Audit entries cannot be deleted.")


class AuditEntry(models.Model):
    class Channel(models.TextChoices):
        WEB = "web", _("web page")
        API = "api", _("API")
        ADMIN = "admin", _("admin")
        COMMAND = "command", _("management command")
        TASK = "task", _("background task")
        OTHER = "other", _("other")

    sequence = models.PositiveBigIntegerField(_("sequence"), unique=True, editable=False)
    at = models.DateTimeField(_("at"), editable=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    actor_name = models.CharField(_("who (as then)"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=60)
    object_type = models.CharField(_("record"), max_length=60)
    object_id = models.CharField(_("record id"), max_length=40)
    tournament_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    summary = models.CharField(_("summary"), max_length=300, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("after"), null=True, blank=True, encoder=DjangoJSONEncoder)
    channel = models.CharField(_("through"), max_length=10, choices=Channel.choices, default=Channel.OTHER)
    path = models.CharField(_("screen or API call"), max_length=300, blank=True)
    # The summary as a code and its values (core/texts.py), outside the hash: it is shown in
    # the reader's language only while its English reading is the hashed summary, so changing it
    # behind the application's back shows the summary as written, never another text.
    summary_code = models.CharField(max_length=60, blank=True, editable=False)
    summary_params = models.JSONField(default=dict, blank=True, editable=False)
    previous_hash = models.CharField(max_length=64, editable=False)
    hash = models.CharField(max_length=64, editable=False)

    objects = AuditQuerySet.as_manager()

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["sequence"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            # A live page's version is its tournament's last entry (scoring.selectors.live_version):
            # one step down this index, however long the evening's trail has grown.
            models.Index(fields=["tournament_id", "sequence"], name="audit_tournament_last"),
        ]

    def __str__(self):
        return (
            f"#{self.sequence} {self.at:%Y-%m-%d %H:%M:%S} {self.actor_name or '-'} {self.action} "
            f"{self.object_type} {self.object_id}"
        )

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("Audit entries cannot be changed.")
        super().save(*args, **kwargs)

    @property
    def summary_text(self):
        """The summary in the reader's language, or as written (and hashed) if its code and
        values do not say exactly that in English."""
        if self.summary_code and english(self.summary_code, self.summary_params)[:300] == self.summary:
            return render(self.summary_code, self.summary_params, self.summary)
        return self.summary

    def content(self):
        """What the hash covers, as canonical JSON."""
        return json.dumps(
            {
                "sequence": self.sequence,
                "at": self.at.isoformat(),
                "actor": self.actor_id,
                "actor_name": self.actor_name,
                "action": self.action,
                "object_type": self.object_type,
                "object_id": self.object_id,
                "tournament": self.tournament_id,
                "summary": self.summary,
                "before": self.before,
                "after": self.after,
                "channel": self.channel,
                "path": self.path,
            },
            sort_keys=True,
            cls=DjangoJSONEncoder,
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def compute_hash(self):
        return hashlib.sha256((self.previous_hash + self.content()).encode()).hexdigest()

    def delete(self, *args, **kwargs):
        raise PermissionError("Audit entries cannot be deleted.")


class AuditHead(models.Model):
    """One row, locked by each writer, so entries are chained one after another."""

    last_sequence = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default=GENESIS)


class AuditCheckpoint(models.Model):
    """One row: when the trail was last verified (``full_verified_at``: from the first entry).
    Bookkeeping only, trusted for nothing: what a check starts from is the last signed tree head
    (``SignedTreeHead``). ``sequence``, ``hash`` and ``seal`` (an HMAC with the secret key) were
    the desk's starting point before the signed heads, and are no longer read."""

    sequence = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS)
    seal = models.CharField(max_length=64, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    # When the whole trail, from entry 1, was last found intact.
    full_verified_at = models.DateTimeField(null=True, blank=True)


class TreeHeadQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("Signed tree heads cannot be changed.")

    def delete(self):
        raise PermissionError("Signed tree heads cannot be deleted.")


class SignedTreeHead(models.Model):
    """A signed tree head (RFC 9162): the Merkle root of the trail's first ``tree_size`` entries,
    signed with the Ed25519 key kept outside the database (audit/signing.py), and exported to the
    heads file as it is signed. Whoever rewrites the entries behind the application's back cannot
    sign a head for the rewritten trail.

    ``frontier``: the perfect subtrees of this tree, largest first (enough to extend it without
    reading the older entries); ``consistency``: the RFC 9162 proof that the tree of
    ``previous_size`` entries (the head before) is a prefix of this one; ``leaves``: the chain
    hashes of the entries this head added (``previous_size`` + 1 to ``tree_size``), so that the
    first entry rewritten since can be named. All hashes in hex."""

    tree_size = models.PositiveBigIntegerField(unique=True)
    root_hash = models.CharField(max_length=64)
    timestamp = models.PositiveBigIntegerField()  # milliseconds since 1970, UTC: what was signed
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)
    previous_size = models.PositiveBigIntegerField(default=0)
    consistency = models.JSONField(default=list)
    frontier = models.JSONField(default=list)
    leaves = models.JSONField(default=list)

    objects = TreeHeadQuerySet.as_manager()

    class Meta:
        verbose_name = _("signed tree head")
        verbose_name_plural = _("signed tree heads")
        ordering = ["tree_size"]

    def __str__(self):
        return f"tree head of {self.tree_size} entries, signed {self.signed_at:%Y-%m-%d %H:%M:%S} UTC"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("Signed tree heads cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("Signed tree heads cannot be deleted.")

    @property
    def signed_at(self):
        import datetime

        return datetime.datetime.fromtimestamp(self.timestamp / 1000, tz=datetime.UTC)

    def as_dict(self) -> dict:
        """The head as exported (one line of the heads file)."""
        return {
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "timestamp": self.timestamp,
            "key_id": self.key_id,
            "signature": self.signature,
            "previous_size": self.previous_size,
            "consistency": self.consistency,
            "frontier": self.frontier,
            "leaves": self.leaves,
        }

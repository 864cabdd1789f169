"""Publishing tournaments to the national body (issue #32): both ends' records.

The national body's end (receiving): ``Origin`` (an organiser's instance, with the public key
its audit trail's heads are signed with), ``OrganiserToken`` (what the organiser's instance
presents; only its SHA-256 is kept), ``Upload`` and ``UploadPart`` (a bundle arriving in parts,
kept until it is verified and stored whole), ``Receipt`` (each bundle stored), ``ReceivedHead``
(every tree head received and verified), ``HeadAlarm`` (a fork or a rollback of an origin's heads),
``ReceivedEntry`` (the origin's audit entries with
their inclusion proofs), ``ReceivedTournament`` (a tournament of the desk that came from an
origin) and ``ReceivedRecord`` / ``ReceivedVersion`` (each record received, the local row it
became and every version of it), ``PlayerMatch`` (the desk's decision that a received player and
another player of the same membership number are one person, issue #41).

The organiser's end (sending): ``PublishTarget`` (the national body's address and the token it
issued) and ``Push`` (one bundle, its parts and how far it went).
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Origin(models.Model):
    name = models.CharField(_("organiser"), max_length=200, unique=True)
    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    authority = models.ForeignKey(
        "scoring.RegulatingAuthority", on_delete=models.PROTECT, related_name="origins", verbose_name=_("national body")
    )
    public_key = models.TextField(_("public key of its audit trail (PEM)"))
    key_id = models.CharField(_("key id"), max_length=16)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("organiser's instance")
        verbose_name_plural = _("organisers' instances")
        ordering = ["name"]

    def __str__(self):
        return self.name


class OrganiserToken(models.Model):
    origin = models.ForeignKey(Origin, on_delete=models.CASCADE, related_name="tokens")
    digest = models.CharField(max_length=64, unique=True)  # SHA-256 of the token: the token itself is never kept
    prefix = models.CharField(max_length=8)  # its first characters, to tell tokens apart on the page
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.prefix}... ({self.origin})"


class Upload(models.Model):
    """A bundle arriving in parts; named by the SHA-256 of the whole bundle."""

    origin = models.ForeignKey(Origin, on_delete=models.CASCADE, related_name="uploads")
    digest = models.CharField(max_length=64)
    parts = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    # The answer to its commit once stored (the same answer to a commit sent again).
    answer = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["origin", "digest"], name="one_upload_per_bundle")]


class UploadPart(models.Model):
    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="received_parts")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["upload", "index"], name="one_row_per_part")]


class Receipt(models.Model):
    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="receipts")
    digest = models.CharField(max_length=64)
    origin_tournament = models.BigIntegerField()
    received_at = models.DateTimeField(default=timezone.now)
    tree_size = models.PositiveBigIntegerField()
    created = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-received_at"]


class ReceivedHead(models.Model):
    """A signed tree head of an origin's audit trail, verified on receipt."""

    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="heads")
    tree_size = models.PositiveBigIntegerField()
    root_hash = models.CharField(max_length=64)
    timestamp = models.PositiveBigIntegerField()
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["origin", "-tree_size"]
        constraints = [models.UniqueConstraint(fields=["origin", "tree_size"], name="one_head_per_size")]

    @property
    def signed_at(self):
        return _moment(self.timestamp)

    def as_dict(self) -> dict:
        return {
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "timestamp": self.timestamp,
            "key_id": self.key_id,
            "signature": self.signature,
        }


class HeadAlarm(models.Model):
    """A tree head of an origin that contradicts a head the desk holds (issue #41): a fork (a
    head of the same size with another root), or a rollback (a head smaller than the last one
    and signed after it, or a larger one whose consistency proof from the last one fails). The
    head is not stored as received; the alarm stays on the desk."""

    class Kind(models.TextChoices):
        FORK = "fork", _("fork")
        ROLLBACK = "rollback", _("rollback")

    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="head_alarms")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=20)  # same_size, smaller, inconsistent (national/federation/heads.py)
    tree_size = models.PositiveBigIntegerField()
    received = models.JSONField()  # the head as sent
    held = models.JSONField()  # the desk's head it contradicts
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    @property
    def received_signed_at(self):
        return _moment(self.received.get("timestamp"))

    @property
    def held_signed_at(self):
        return _moment(self.held.get("timestamp"))


def _moment(milliseconds):
    """A head's time of signing (milliseconds since 1970, UTC) as a moment; None if it is none."""
    import datetime

    try:
        return datetime.datetime.fromtimestamp(int(milliseconds) / 1000, tz=datetime.UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return None


class ReceivedEntry(models.Model):
    """One audit entry of an origin, as received, with its inclusion proof in ``head``."""

    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="entries")
    sequence = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)
    content = models.JSONField()
    head = models.ForeignKey(ReceivedHead, on_delete=models.PROTECT, related_name="entries")
    proof = models.JSONField(default=list)
    tournament = models.ForeignKey("scoring.Tournament", on_delete=models.PROTECT, related_name="received_entries")

    class Meta:
        ordering = ["origin", "sequence"]
        constraints = [models.UniqueConstraint(fields=["origin", "sequence"], name="one_received_entry_per_sequence")]


class ReceivedTournament(models.Model):
    tournament = models.OneToOneField("scoring.Tournament", on_delete=models.PROTECT, related_name="received_from")
    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="tournaments")
    origin_pk = models.BigIntegerField()
    head = models.ForeignKey(ReceivedHead, on_delete=models.PROTECT, related_name="+")
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["origin", "origin_pk"], name="one_tournament_per_origin_pk")]


class ReceivedRecord(models.Model):
    """A record received from an origin and the row of this desk it is (same models as the
    desk's own: search, statistics, casebooks and precedents read it like any other)."""

    origin = models.ForeignKey(Origin, on_delete=models.PROTECT, related_name="records")
    model = models.CharField(max_length=60)
    origin_pk = models.BigIntegerField()
    local_pk = models.BigIntegerField()
    version = models.PositiveIntegerField(default=1)
    digest = models.CharField(max_length=64)
    tournament = models.ForeignKey("scoring.Tournament", on_delete=models.PROTECT, related_name="received_records")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["origin", "model", "origin_pk"], name="one_local_row_per_record")
        ]
        indexes = [models.Index(fields=["model", "local_pk"])]


class ReceivedVersion(models.Model):
    record = models.ForeignKey(ReceivedRecord, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    fields = models.JSONField()
    receipt = models.ForeignKey(Receipt, on_delete=models.PROTECT, related_name="versions")

    class Meta:
        ordering = ["record", "version"]
        constraints = [models.UniqueConstraint(fields=["record", "version"], name="one_row_per_version")]


class PlayerMatch(models.Model):
    """An auditor's decision that a received player (kept apart: another instance or the desk
    holds its membership number) and another player of that number are one person (issue #41,
    national/federation/players.py). Neither player's row is touched: each stays its instance's
    and each instance's next version updates its own; the desk's reads count them as one. Undone
    by another decision (``unmatch``, the table national.lifecycle.PLAYER_MATCH): the row is kept
    with who undid it, when and why, and a new match is a new row."""

    class State(models.TextChoices):
        MATCHED = "matched", _("matched")
        UNMATCHED = "unmatched", _("unmatched")

    player = models.ForeignKey("scoring.Player", on_delete=models.PROTECT, related_name="matches")
    same_as = models.ForeignKey("scoring.Player", on_delete=models.PROTECT, related_name="matched_from")
    state = models.CharField(max_length=10, choices=State.choices, default=State.MATCHED)
    reason = models.TextField()
    matched_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    matched_at = models.DateTimeField(default=timezone.now)
    unmatched_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    unmatched_at = models.DateTimeField(null=True, blank=True)
    unmatch_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-matched_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(state="matched"), name="one_open_match_per_player"
            ),
            models.CheckConstraint(condition=~models.Q(player=models.F("same_as")), name="a_match_is_of_two_players"),
        ]

    def __str__(self):
        return f"{self.player} = {self.same_as}"


class PublishTarget(models.Model):
    """The organiser's end: the national body's receiving address and the token it issued."""

    url = models.URLField(_("national body's address"), max_length=300)
    token = models.CharField(_("token"), max_length=100)
    created_at = models.DateTimeField(default=timezone.now)
    # The tree heads witnessed there (issue #41, national/federation/heads.py): the size of the
    # last head it holds from this instance, when it said so, and why the last sending stopped.
    heads_witnessed = models.PositiveBigIntegerField(default=0)
    heads_witnessed_at = models.DateTimeField(null=True, blank=True)
    heads_error_code = models.CharField(max_length=40, blank=True)
    heads_error_params = models.JSONField(default=dict, blank=True)

    def __str__(self):
        return self.url

    @property
    def heads_error(self) -> str:
        from national.federation import messages

        return messages.render(self.heads_error_code, self.heads_error_params)


class Push(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        SENDING = "sending", _("sending")
        DELIVERED = "delivered", _("delivered")
        REFUSED = "refused", _("refused")
        STOPPED = "stopped", _("stopped")  # its retries spent: publishing again resumes it

    target = models.ForeignKey(PublishTarget, on_delete=models.PROTECT, related_name="pushes")
    tournament = models.ForeignKey("scoring.Tournament", on_delete=models.PROTECT, related_name="pushes")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    bundle = models.BinaryField(default=b"")
    digest = models.CharField(max_length=64, blank=True)
    parts = models.PositiveIntegerField(default=0)
    parts_sent = models.PositiveIntegerField(default=0)
    tree_size = models.PositiveBigIntegerField(default=0)
    entries = models.PositiveIntegerField(default=0)
    records = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Why it stopped (retried or ended): a code of national/federation/messages.py and its
    # parameters, shown in the reader's language; never the text.
    error_code = models.CharField(max_length=40, blank=True)
    error_params = models.JSONField(default=dict, blank=True)
    answer = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    @property
    def last_error(self) -> str:
        from national.federation import messages

        return messages.render(self.error_code, self.error_params)

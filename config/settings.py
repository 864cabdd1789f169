"""Settings, all from the environment.

With nothing set, the project runs on embedded parts: SQLite and a Celery broker that keeps
its messages in folders under ``var/``. DEBUG is off unless DJANGO_DEBUG=1 (``make run`` and the
test suite set it, issue #41); production sets DATABASE_URL, CELERY_BROKER_URL,
DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS (see docs/operations.md).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("BRIDGECASES_VAR_DIR", BASE_DIR / "var"))
# `make test` runs the suite in several processes at once (pytest-xdist's gw0, gw1, ...): each
# keeps its files (SQLite test database, broker folders, uploads) in a folder of its own, and so
# does the Celery worker it starts, which inherits the variable. See tests/conftest.py.
if os.environ.get("PYTEST_XDIST_WORKER"):
    VAR_DIR = VAR_DIR / os.environ["PYTEST_XDIST_WORKER"]
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for (issue #41): a server started without the variable is a production one,
# never one that shows Django's technical pages to whoever sends a foreign Host.
DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. On a developer's machine set DJANGO_DEBUG=1 "
            "(make run and make test do)."
        )
    # Only ever used on a developer's machine: production refuses to start without a key.
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "audit",
    "scoring",
    "rulings",
    "appeals",
    "national",
    "axes",  # login throttling (config/login_throttle.py)
    "csp",  # the Content-Security-Policy header (CONTENT_SECURITY_POLICY below)
]

MIDDLEWARE = [
    # Every request's id (X-Request-ID), on its response and on the log line of an unhandled
    # exception, with the user and the step (core/request_ids.py).
    "core.request_ids.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy (django-csp) and Permissions-Policy on every response (below).
    "csp.middleware.CSPMiddleware",
    "config.security_headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # A file over its field's limit refused while the body is read, 413 (config/upload_limits.py).
    "config.upload_limits.UploadLimitMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "audit.context.AuditContextMiddleware",
    # API writes with an Idempotency-Key: a retry answers the first answer, writes nothing.
    "core.idempotency.IdempotencyKeyMiddleware",
    # A change that met a concurrent one after every retry, or a database that does not answer:
    # 503 + Retry-After, never a 500; a read that lost its connection is run once more.
    "core.retry.DatabaseTroubleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes requires: a locked-out login answers 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.roles",
                "core.renders.context_processor",  # after Django's CSRF processor (core/renders.py)
            ],
            # {% load bridge_cards %}: card ranks and suit symbols (docs/translations.md).
            "libraries": {"bridge_cards": "core.i18n"},
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        # Persistent connections, checked before each request's or task's first query: a worker
        # keeps one connection from task to task (see CELERY_DB_REUSE_MAX below).
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the worker write to one file: wait for the lock instead of failing.
    # IMMEDIATE takes the write lock when a transaction begins, so two writers queue instead of
    # deadlocking on the upgrade from read to write ("database is locked").
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    # A test database in a file, not in memory, so a real worker process can share it; one per
    # test run, so two runs on one machine do not delete each other's.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes, config/login_throttle.py): wrong passwords are counted by
# username and by address; AXES_FAILURE_LIMIT of them for a username (LOGIN_ADDRESS_FAILURE_LIMIT
# from an address: a hall shares one) within LOGIN_FAILURE_MEMORY_HOURS lock it out (429) for LOGIN_LOCKOUT_SECONDS, doubled by each wrong password
# after a lockout up to LOGIN_LOCKOUT_MAX_SECONDS. Attempts are kept in the database.
AUTHENTICATION_BACKENDS = [
    "config.login_throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "60"))
LOGIN_LOCKOUT_MAX_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_MAX_SECONDS", "3600"))
LOGIN_FAILURE_MEMORY_HOURS = float(os.environ.get("LOGIN_FAILURE_MEMORY_HOURS", "24"))
AXES_HANDLER = "config.login_throttle.BackoffHandler"
AXES_COOLOFF_TIME = "config.login_throttle.cool_off"  # the time left of a lockout
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
# A guess during a lockout is refused unchecked and neither counts nor lengthens it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
# 429 with Retry-After and the time left in words, the login page or the API's JSON.
AXES_LOCKOUT_CALLABLE = "config.login_throttle.lockout_response"

# Shared by every web process (the API throttles count in it): Redis in production
# (DJANGO_CACHE_URL=redis://...), else memory of each process. While Redis cannot be reached,
# each process counts in its own memory and says so in the log (config/resilient_cache.py):
# a request never fails, nor waits more than the short socket timeouts, for the cache.
if os.environ.get("DJANGO_CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "config.resilient_cache.ResilientRedisCache",
            "LOCATION": os.environ["DJANGO_CACHE_URL"],
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("he", _("Hebrew")),
    ("uk", _("Ukrainian")),
    ("is", _("Icelandic")),
    ("el", _("Greek")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# Each language's date formats are Django's, but English's, Icelandic's and Greek's (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# Uploaded files (ruling attachments) go through the "default" storage: files under MEDIA_ROOT
# here; a deployment may name an S3-compatible backend instead.
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production hardening; all on as soon as DEBUG is off.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp), on every response: scripts, styles, images, fonts and
# requests from this site only; no inline script or style (every template keeps its JavaScript
# and CSS in static/, tests/test_security_headers.py fails on an inline one), no plugin, no
# framing, forms posted to this site only. data: images for the API docs' icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
}
# Permissions-Policy (config/security_headers.py): no page of the site may use these features.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "browsing-topics",
        "camera",
        "display-capture",
        "encrypted-media",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}
PERMISSIONS_POLICY["fullscreen"] = ["self"]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.login_throttle.BasicAuthentication",  # a lockout answers 429 (config/login_throttle.py)
        # Scripts and scoring programs: "Authorization: Token <key>" (manage.py drf_create_token).
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.permissions.CompetitionRecordPermission"],
    # The API contract (core/api_contract.py): documented 400/403/404/409 with one error shape.
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.ContractSchema",
    "EXCEPTION_HANDLER": "core.api_contract.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "core.api_contract.StrictLimitOffsetPagination",
    # The API reads JSON (what scripts and scoring programs send), and the schema says so.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "PAGE_SIZE": 100,
}

# API throttles: per signed-in user and per anonymous address; beyond the rate, 429 with
# Retry-After. A scoring program posting a whole session stays far below the user rate.
REST_FRAMEWORK.update(
    {
        "DEFAULT_THROTTLE_CLASSES": [
            "rest_framework.throttling.AnonRateThrottle",
            "rest_framework.throttling.UserRateThrottle",
        ],
        "DEFAULT_THROTTLE_RATES": {
            "anon": os.environ.get("API_ANON_RATE", "120/minute"),
            "user": os.environ.get("API_USER_RATE", "1200/minute"),
        },
    }
)

SPECTACULAR_SETTINGS = {
    "TITLE": "Bridge rulings and appeals API",
    "DESCRIPTION": "The competition record, rulings and appeals of bridge tournaments.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies as components of their own: what a client sends (no read-only fields,
    # minLength 1 where blank is refused) apart from what it reads.
    "COMPONENT_SPLIT_REQUEST": True,
    # drf-spectacular's own hook, then the rules DRF enforces on every text (core/api_schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api_schema.state_refused_characters",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "scoring.models.SEAT_CHOICES",
        "RulingStateEnum": "rulings.models.Ruling.State",
        "SideEnum": "rulings.models.SIDE_CHOICES",
        # Fields named alike with choices of their own (kind, outcome, origin), named apart.
        "AdjustmentEnum": "scoring.models.Adjustment",
        "EventKindEnum": "scoring.models.Event.Kind",
        "ContestantKindEnum": "scoring.models.Contestant.Kind",
        "RulingKindEnum": "rulings.models.Ruling.Kind",
        "RulingOutcomeEnum": "rulings.models.Ruling.Outcome",
        "PenaltyKindEnum": "rulings.models.Penalty.Kind",
        "AppealOutcomeEnum": "appeals.models.Outcome",
        "AppealOriginEnum": "appeals.models.Appeal.Origin",
        "FurtherAppealOriginEnum": "appeals.models.FurtherAppeal.Origin",
        "AppealPartKindEnum": "appeals.models.AppealPart.Kind",
        "BodyKindEnum": "appeals.models.Body.Kind",
        "AppealStateEnum": "appeals.models.Appeal.State",
        "AppealRequestAboutEnum": "appeals.models.AppealRequest.About",
        "RecommendationAboutEnum": "appeals.models.Recommendation.About",
    },
}

# Celery. The default broker keeps its queue in folders on disk, so a worker runs with no
# server installed; production points CELERY_BROKER_URL at Redis or RabbitMQ.
BROKER_DIR = VAR_DIR / "broker"
# With its host spelled out: kombu warns "No hostname was supplied" for a bare filesystem://.
# The scheme chooses the project's filesystem transport (config/celery.py registers it), so the
# worker logs "Connected to filesystem://:**@localhost//" (the README's line).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://localhost//")
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.1,
    }
# A change is saved even when the broker is down (the sweep sends its task later), so a web
# request should not wait long for a network broker that does not answer.
NETWORK_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
if not CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = dict(NETWORK_BROKER_TRANSPORT_OPTIONS)
# Workers and beat wait for the broker as long as it takes and resume by themselves: every
# retry limit off (config/celery.py gives them these options instead of the web's). Redis:
# keepalive and a health check find a dead connection; a task taken by a worker that died is
# delivered again after visibility_timeout (the sweep resends it sooner, from the database).
WORKER_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": None,
    "interval_start": 0,
    "interval_step": 1,
    "interval_max": 5,
    "socket_keepalive": True,
    "health_check_interval": 10,
    "retry_on_timeout": True,
    "visibility_timeout": 3600,
}
CELERY_BROKER_CONNECTION_RETRY = True
# Celery's Django fixup closes every database connection before and after each task unless this
# is set: set it out of reach, and config/celery.py closes only what Django's request cycle would
# (a connection older than CONN_MAX_AGE, or one left unusable), so a worker reuses its connection.
CELERY_DB_REUSE_MAX = 10**9
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a worker never gives up on its broker
CELERY_BROKER_HEARTBEAT = 30  # RabbitMQ: a dead connection is noticed within a minute
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Queues: a burst of double-dummy solving, casebook printing, mail or imports never waits in
# front of a standings update. A worker started without -Q consumes every queue (the dev
# Procfile, the tests); a deployment runs workers per queue (docs/operations.md).
CELERY_TASK_QUEUES = [Queue(name) for name in ("standings", "default", "double_dummy", "casebooks", "mail", "imports")]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "scoring.tasks.recalculate_board": {"queue": "standings"},
    "scoring.tasks.sweep_recalculations": {"queue": "standings"},
    "scoring.tasks.import_*": {"queue": "imports"},
    "rulings.tasks.solve_*": {"queue": "double_dummy"},
    "national.tasks.*": {"queue": "casebooks"},
    "*.tasks.send_*": {"queue": "mail"},
}
# Mail (appeal notifications): printed to the console unless an SMTP server is configured.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "appeals@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # An unhandled exception's one line says the request's id, the user and the step.
    "filters": {"request_context": {"()": "core.request_ids.RequestContext"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "django.request": {"filters": ["request_context"]}},
}
# Error reporting (docs/operations.md, "Errors"): with SENTRY_DSN set, every unhandled exception
# of a request or a task is also sent to Sentry (sentry-sdk); off when it is empty.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from core.request_ids import init_sentry

    init_sentry(SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT") or None)
CELERY_BROKER_CONNECTION_TIMEOUT = float(os.environ.get("CELERY_BROKER_CONNECTION_TIMEOUT", "3"))
# The sweep resends a recalculation request no worker finished within this many seconds.
RECALCULATION_SWEEP_AFTER_SECONDS = float(os.environ.get("RECALCULATION_SWEEP_AFTER_SECONDS", "60"))
# The audit trail's signed tree heads (audit/signing.py, docs/operations.md "Audit"): the Ed25519
# private key, the public keys heads are verified with (old ones kept after a rotation), and the
# file every head is appended to (each write signs one, issue #41). All outside the database.
AUDIT_SIGNING_KEY_FILE = os.environ.get("AUDIT_SIGNING_KEY_FILE", str(VAR_DIR / "keys" / "audit-signing-key.pem"))
AUDIT_PUBLIC_KEYS_DIR = os.environ.get("AUDIT_PUBLIC_KEYS_DIR", str(VAR_DIR / "keys" / "audit-public"))
AUDIT_HEADS_FILE = os.environ.get("AUDIT_HEADS_FILE", str(VAR_DIR / "audit-heads.jsonl"))
# A second copy of every head elsewhere (another disk or a mounted host), read by every full
# verification: required in production (audit.E002, issue #41).
AUDIT_WITNESS_FILE = os.environ.get("AUDIT_WITNESS_FILE", "")

# Publishing tournaments to the national body (issue #32, docs/operations.md "Publishing to the
# national body"). The receiving end: requests a minute per organiser, a part's and a bundle's
# size. The sending end: the size of the parts it cuts a bundle into, the first pause before a
# push cut on the way is tried again (then doubling, at most 10 minutes).
FEDERATION_REQUESTS_PER_MINUTE = int(os.environ.get("FEDERATION_REQUESTS_PER_MINUTE", "600"))
FEDERATION_MAX_PART_BYTES = int(os.environ.get("FEDERATION_MAX_PART_BYTES", str(1 << 20)))
FEDERATION_MAX_BUNDLE_BYTES = int(os.environ.get("FEDERATION_MAX_BUNDLE_BYTES", str(256 << 20)))
# The parts of a bundle never committed are deleted this many hours after its first part arrived.
FEDERATION_UPLOAD_HOURS = float(os.environ.get("FEDERATION_UPLOAD_HOURS", "48"))
# At most this many bundles of one instance uncommitted at once: its oldest deleted beyond it.
FEDERATION_MAX_OPEN_UPLOADS = int(os.environ.get("FEDERATION_MAX_OPEN_UPLOADS", "4"))
# A received attachment's size (by default the limit of an attachment added here, 5 MiB).
FEDERATION_MAX_ATTACHMENT_BYTES = int(os.environ.get("FEDERATION_MAX_ATTACHMENT_BYTES", str(5 << 20)))
FEDERATION_PART_BYTES = int(os.environ.get("FEDERATION_PART_BYTES", str(512 * 1024)))
FEDERATION_RETRY_BACKOFF = int(os.environ.get("FEDERATION_RETRY_BACKOFF", "2"))
# The organiser's tree heads sent to the national body to witness (issue #41,
# national/federation/heads.py): every FEDERATION_HEADS_SECONDS, at most FEDERATION_HEADS_BATCH a
# request.
FEDERATION_HEADS_SECONDS = float(os.environ.get("FEDERATION_HEADS_SECONDS", "60"))
FEDERATION_HEADS_BATCH = int(os.environ.get("FEDERATION_HEADS_BATCH", "500"))
# How long an API write's Idempotency-Key is remembered (docs/api.md); beat purges older ones.
IDEMPOTENCY_KEY_HOURS = float(os.environ.get("IDEMPOTENCY_KEY_HOURS", "24"))
CELERY_BEAT_SCHEDULE = {
    # Idempotency-Keys past IDEMPOTENCY_KEY_HOURS deleted (core/idempotency.py).
    "purge-idempotency-keys": {"task": "core.tasks.purge_idempotency_keys", "schedule": 3600.0},
    # The parts of bundles never committed past FEDERATION_UPLOAD_HOURS deleted (issue #32).
    "purge-stale-federation-uploads": {"task": "national.tasks.purge_stale_uploads", "schedule": 3600.0},
    # The tree heads signed since the national body's last one sent to it to witness (issue #41).
    "push-tree-heads": {"task": "national.tasks.push_heads", "schedule": FEDERATION_HEADS_SECONDS},
    # The safety net of the recalculation pipeline: anything no worker finished is sent again.
    "sweep-recalculations": {
        "task": "scoring.tasks.sweep_recalculations",
        "schedule": float(os.environ.get("RECALCULATION_SWEEP_SECONDS", "30")),
    },
    # Rulings not appealed within the appeal period (Law 92B) become final.
    "finalise-rulings": {"task": "rulings.tasks.finalise_rulings", "schedule": 60.0},
    # An hour before an open appeal must be decided, its body and the chief directors are told.
    "remind-decisions-due": {"task": "appeals.tasks.remind_decisions_due", "schedule": 300.0},
    # The whole audit trail verified against every signed head once a day (each write signs its
    # own head, issue #41).
    "verify-audit-trail": {"task": "audit.tasks.verify_trail", "schedule": 24 * 3600.0},
}

# The browser that prints casebooks to PDF (Debian's chromium; Playwright drives it). Without
# one, the casebook page prints to PDF from the reader's own browser.
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# Results files from scoring programs (PBN, USEBIO): the largest upload or file read, in bytes.
# A bigger file is refused with its size and this limit, never cut short.
INTERCHANGE_MAX_FILE_BYTES = int(os.environ.get("INTERCHANGE_MAX_FILE_BYTES", str(10 * 1024 * 1024)))
# Every upload is counted while it is read and stopped at its field's limit (results files: the
# one above; a ruling's attachment 5 MB, its PBN or LIN file 200 kB): config/upload_limits.py.
FILE_UPLOAD_HANDLERS = [
    "config.upload_limits.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

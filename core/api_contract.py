"""What every API operation promises beyond its own body (issue #19, "The API contract").

- One error shape for the whole API: an object whose every key is a field (or ``detail`` for
  the request as a whole, ``non_field_errors`` for a body as a whole) and whose value is the
  list of messages about it: ``{"starts_at": ["Give the date and time of the hearing."]}``.
  ``exception_handler`` makes DRF's errors (400, 403, 404, 405, 409, 429) take that shape.
- The status codes, documented on every operation by core.api_schema.ContractSchema:
  400 the request does not have the documented form (a field missing or of the wrong type, a
  query parameter given twice or not a number); 403 not logged in or not allowed; 404 the
  record in the path (or one the body names) does not exist or is not the caller's to see; 409
  the request is well formed but the record as it stands refuses it (the service's own refusal,
  named by field: a deadline passed, an appeal already decided, a board number taken).
- ``StrictLimitOffsetPagination``: ``limit`` and ``offset`` are whole numbers given at most
  once; anything else is a 400 naming the parameter (DRF's own class silently ignores them).
"""

import sys

from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.defaults import page_not_found
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, pagination, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core import retry

ERROR_SCHEMA = {
    "type": "object",
    "description": "Each key is a field of the request (or `detail` for the request as a whole, `non_field_errors` "
    "for a body as a whole); each value the messages about it.",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}


class Conflict(exceptions.APIException):
    """A well-formed request that the record, as it stands, refuses (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The record as it stands does not allow this."
    default_code = "conflict"


def refusal(error):
    """A service's ValidationError as the API's 409, with its messages by field."""
    if hasattr(error, "error_dict"):
        return Conflict(error.message_dict)
    return Conflict({"non_field_errors": error.messages})


def _flatten(data, prefix=""):
    """DRF's nested error details as {field path: [messages]}: ``members.0``, ``ns.score``."""
    if isinstance(data, dict):
        flat = {}
        for key, value in data.items():
            flat.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(data, list) and any(isinstance(item, (dict, list)) for item in data):
        flat = {}
        for index, item in enumerate(data):
            if isinstance(item, (dict, list)):
                flat.update(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
            elif item:
                flat.setdefault(prefix or "non_field_errors", []).append(str(item))
        return flat
    messages = data if isinstance(data, list) else [data]
    return {prefix or "detail": [str(message) for message in messages if str(message)]}


def exception_handler(exc, context):
    """DRF's handler, then every error body in the one shape; a service's ValidationError that
    escaped a view is a 409 like any other refusal."""
    if isinstance(exc, DjangoValidationError):
        exc = refusal(exc)
    exc = _counted_by_the_throttles(exc, context)
    if isinstance(exc, Http404):
        # Django's "No Event matches the given query." is English in every language (Django
        # does not mark it): the reader gets DRF's "Not found." in their language instead.
        exc = exceptions.NotFound()
    if retry.is_conflict(exc) or retry.is_unavailable(exc):
        # A database that does not answer, or a conflict that escaped every retry: 503 +
        # Retry-After; retry.DatabaseTroubleMiddleware runs a read once more on seeing it.
        set_rollback()
        unavailable = Response(
            {"detail": [retry.unavailable_message(exc, getattr(context.get("request"), "method", "GET"))]},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(retry.RETRY_AFTER_SECONDS)},
        )
        unavailable.database_unavailable = exc  # type: ignore[attr-defined]  # read by retry.DatabaseTroubleMiddleware
        return unavailable
    response = drf_exception_handler(exc, context)
    if response is None:
        # Anything else is a server error: raised on, to be logged and answered by server_error.
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        if isinstance(data, list):
            data = {"non_field_errors": data}
        if set(_codes(exc.get_codes())) == {"does_not_exist"}:
            # A well-formed body that names a record which does not exist: 404, like a path.
            response.status_code = status.HTTP_404_NOT_FOUND
    response.data = _flatten(data)
    return response


def _counted_by_the_throttles(exc, context):
    """DRF checks its throttles after authentication and permissions, so a failed
    authentication (a wrong token or password) and an anonymous request refused were never
    counted, and the anonymous rate never applied: they are counted here, against the caller's
    address, and beyond the rate answer 429 with Retry-After instead (issue #30)."""
    view, request = context.get("view"), context.get("request")
    refused_anonymous = isinstance(exc, exceptions.PermissionDenied) and not getattr(
        getattr(request, "user", None), "is_authenticated", False
    )
    if view is None or request is None:
        return exc
    if not (isinstance(exc, (exceptions.AuthenticationFailed, exceptions.NotAuthenticated)) or refused_anonymous):
        return exc
    try:
        view.check_throttles(request)
    except exceptions.Throttled as throttled:
        return throttled
    return exc


def _codes(codes):
    if isinstance(codes, dict):
        for value in codes.values():
            yield from _codes(value)
    elif isinstance(codes, list):
        for value in codes:
            yield from _codes(value)
    else:
        yield codes


def not_found(request, exception):
    """Django's 404 (config.urls.handler404): under /api/ an address no route matches answers
    in the API's error shape, as JSON; elsewhere the site's own page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": [str(exceptions.NotFound.default_detail)]}, status=404)
    return page_not_found(request, exception)


def server_error(request):
    """Django's 500 (config.urls.handler500), for whatever no view or middleware answered:
    under /api/ JSON in the API's error shape; a database that does not answer (a connection
    lost before or after the view, in a middleware) is a 503 with Retry-After on every page;
    elsewhere the site's own 500 page. Django has logged the error before calling this."""
    error = sys.exc_info()[1]
    if error is not None and (retry.is_conflict(error) or retry.is_unavailable(error)):
        return retry.unavailable_response(request, error)
    if request.path.startswith("/api/"):
        message = _("The server met an error it did not expect; it has been logged. Please try again later.")
        return JsonResponse({"detail": [message]}, status=500)
    return defaults.server_error(request)


class StrictLimitOffsetPagination(pagination.LimitOffsetPagination):
    """``limit`` (1 or more) and ``offset`` (0 or more), each at most once; else a 400. A limit
    above ``max_limit`` gives ``max_limit`` rows; an offset beyond what the database can count
    (LARGEST_ID) is past every row, an empty page, as any offset past the last row is."""

    max_limit = 1000

    def _strict(self, request, name, minimum):
        values = request.query_params.getlist(name)
        if not values:
            return None
        if len(values) > 1:
            raise exceptions.ValidationError({name: [_("Give %(name)s once.") % {"name": name}]})
        try:
            value = int(values[0])
        except ValueError:
            value = None
        if value is None or value < minimum or not values[0].strip().lstrip("+").isdigit():
            raise exceptions.ValidationError(
                {
                    name: [
                        _("%(name)s must be a whole number, %(minimum)s or more.") % {"name": name, "minimum": minimum}
                    ]
                }
            )
        return value

    def get_limit(self, request):
        limit = self._strict(request, self.limit_query_param, 1)
        if limit is None:
            return self.default_limit
        return min(limit, self.max_limit) if self.max_limit else limit

    def get_offset(self, request):
        return min(self._strict(request, self.offset_query_param, 0) or 0, LARGEST_ID)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1 if parameter["name"] == self.limit_query_param else 0
        return parameters


# The largest id a database column holds (a 64-bit signed integer): a larger number in a filter
# is a 400, not an overflow inside the database driver.
LARGEST_ID = 2**63 - 1


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": LARGEST_ID})
class WholeNumberFilter(filters.NumberFilter):
    """An id or a number: a whole number from 0 to LARGEST_ID (django-filter's NumberFilter
    takes decimals, which a lookup would silently cut to a whole number)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", LARGEST_ID)
        super().__init__(*args, **kwargs)


class IdField(serializers.IntegerField):
    """A record's id in a request body: a whole number the database can hold (0 to LARGEST_ID),
    documented so; a larger one is a 400 naming the field, not an overflow in the driver."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", LARGEST_ID)
        super().__init__(**kwargs)

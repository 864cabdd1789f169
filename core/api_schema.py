"""The OpenAPI side of the API contract (core/api_contract.py): every operation documents
the errors it can answer (400, 403, 404, 409, 422), each with the one Error body."""

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from core.api_contract import ERROR_SCHEMA


class ErrorSerializer(serializers.Serializer):
    """The error body of every operation (see ERROR_SCHEMA); documentation only."""


class ErrorSerializerExtension(OpenApiSerializerExtension):
    target_class = "core.api_schema.ErrorSerializer"

    def get_name(self, auto_schema, direction):
        return "Error"

    def map_serializer(self, auto_schema, direction):
        return dict(ERROR_SCHEMA)


class ContractSchema(AutoSchema):
    """Every operation documents the errors it can answer, each with the Error body."""

    def _error_codes(self):
        writes = self.method in ("POST", "PUT", "PATCH", "DELETE")
        # Not logged in (session authentication sends no challenge) or not allowed; throttled.
        codes = {"403", "429"}
        if writes or self._is_list_view() or self.get_override_parameters():
            codes.add("400")  # a body or query parameters not of the documented form
        if "{" in self.path or writes:
            codes.add("404")  # the record in the path, or one the body names
        if writes:
            codes.add("409")  # the service's refusal of a well-formed request
            codes.add("422")  # an Idempotency-Key used before for another request
        if writes and "multipart/form-data" in self.map_parsers():
            codes.add("413")  # a file over its field's limit (config/upload_limits.py)
        return sorted(codes)

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in self._error_codes():
            if code not in responses:
                responses[code] = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                responses[code]["description"] = str(ERROR_DESCRIPTIONS[code])
        return responses


# The schema's own words (the schema is in English, like the rest of the API's documentation).
ERROR_DESCRIPTIONS = {
    "400": "The request does not have the documented form; the body names each field.",
    "403": "Not logged in, or not allowed to do this.",
    "404": "No such record, or not one the caller may see.",
    "409": "The record as it stands refuses this; the body names the field and the reason.",
    "413": "A file is over its field's limit (the body names the field and the limit), or the whole upload is over "
    "what any form takes; refused while it is read, nothing kept.",
    "422": "The Idempotency-Key was used before for another request (another body, method or path).",
    "429": "Too many requests (the API's throttles); the Retry-After header says when to try again.",
}

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255},
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "1 to 255 characters of the caller's choosing, new for each change (a UUID). Sent again with the same "
        "request (same method, path and body), the first answer is given again (header Idempotent-Replayed: true) "
        "and nothing is written; with another request, 422; while the first is still running, 409. Keys are kept "
        "24 hours (IDEMPOTENCY_KEY_HOURS). See docs/api.md."
    ),
)


# What DRF's CharField refuses in any text it reads (its ProhibitNullCharactersValidator):
# stated in the schema, so a client (and schemathesis) knows it before sending one.
NO_NUL = "^[^\\x00]*$"


def state_refused_characters(result, generator, request, public):
    """drf-spectacular postprocessing hook: every text a request body takes (a property of a
    ``...Request`` component, or the items of a list of texts) states that NUL is refused."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if not name.endswith("Request"):
            continue
        for prop in component.get("properties", {}).values():
            for schema in (prop, prop.get("items") or {}):
                if schema.get("type") == "string" and "enum" not in schema and "format" not in schema:
                    schema.setdefault("pattern", NO_NUL)
    return result

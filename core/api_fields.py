"""Fields the API's serializers share (issue #41, tests/test_api_fuzz.py)."""

from rest_framework import serializers


class WholePrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """A record named by its id, a whole number: 1.5 is refused naming the field, never looked up
    as record 1 (the database's cast truncates it)."""

    def to_internal_value(self, data):
        if isinstance(data, float):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)

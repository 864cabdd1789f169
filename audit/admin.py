from django.contrib import admin

from audit.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read only: nothing in the trail can be edited or deleted through the application."""

    list_display = ["sequence", "at", "actor_name", "action", "object_type", "object_id", "channel", "path"]
    list_filter = ["action", "object_type", "channel"]
    search_fields = ["summary", "object_id", "actor_name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

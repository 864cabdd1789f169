from django.contrib import admin

from audit.models import AuditEntry, SignedTreeHead


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


@admin.register(SignedTreeHead)
class SignedTreeHeadAdmin(admin.ModelAdmin):
    """Read only: heads are signed by each write (audit/sealing.py), never written by hand."""

    list_display = ["tree_size", "signed_at", "key_id", "root_hash", "previous_size"]
    exclude = ["leaves", "frontier", "consistency"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

"""The admin never writes what a service owns.

Every write to the competition record, rulings, appeals, casebooks and the audit trail goes
through a service (validation, audit entry, recalculation). The admin pages of those models are
for reading: ``ReadOnlyAdmin`` and ``ReadOnlyInline`` refuse add, change and delete (403) for
every user, superusers included. Where the admin offers an edit, its save calls the service
(``scoring.admin.ResultAdmin``).
"""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

# The Idempotency-Key moved to the kernel (core/migrations/0001, issue #38): scoring forgets the
# model; its table and rows stay, now core's.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0015_claim_suit_order_setting'),
        ('core', '0001_idempotency_key_from_scoring'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='IdempotencyKey')],
            database_operations=[],
        ),
    ]

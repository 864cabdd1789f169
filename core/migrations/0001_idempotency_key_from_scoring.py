# The Idempotency-Key moved from scoring to the kernel (issue #38): the model changes app, its
# table (scoring_idempotencykey, made by scoring 0012) and its rows stay where they are.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0015_claim_suit_order_setting'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='IdempotencyKey',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('principal', models.CharField(max_length=100)),
                        ('key', models.CharField(max_length=255)),
                        ('method', models.CharField(max_length=10)),
                        ('path', models.CharField(max_length=2000)),
                        ('fingerprint', models.CharField(max_length=64)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('expires_at', models.DateTimeField(db_index=True)),
                        ('done', models.BooleanField(default=False)),
                        ('status', models.PositiveSmallIntegerField(null=True)),
                        ('content_type', models.CharField(blank=True, max_length=200)),
                        ('body', models.BinaryField(default=b'')),
                    ],
                    options={
                        'db_table': 'scoring_idempotencykey',
                        'constraints': [
                            models.UniqueConstraint(fields=('principal', 'key'), name='one_idempotency_key_per_caller')
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]

"""The national body's pages; included under ``/national/``."""

from django.urls import path

from national import audit_views, casebook_views, precedent_views
from national import views as national_views
from national.federation import carried_views, player_views
from national.federation import views as federation_views

app_name = "national"

urlpatterns = [
    path("", national_views.home, name="national-home"),
    path("audit/verify/", audit_views.verify_trail, name="audit-verify"),
    path("search/", national_views.search, name="national-search"),
    path("statistics/", national_views.statistics, name="national-statistics"),
    path("statistics/quality/", national_views.quality, name="national-quality"),
    path("precedents/", precedent_views.precedent_search, name="precedents"),
    path("precedents/<int:pk>/", precedent_views.precedent_detail, name="precedent"),
    path("federation/", federation_views.received, name="federation"),
    path("federation/<int:pk>/heads/", federation_views.origin_heads, name="federation-heads"),
    path("federation/tokens/<int:pk>/revoke/", federation_views.revoke, name="federation-revoke"),
    path("federation/outbox/", federation_views.outbox, name="federation-outbox"),
    path("federation/outbox/<int:pk>/publish/", federation_views.publish, name="federation-publish"),
    path("federation/outbox/<int:pk>/carry/", carried_views.carry, name="federation-carry"),
    path("federation/receive/", carried_views.receive_carried, name="federation-receive"),
    path("federation/proof/<int:pk>/", federation_views.case_proof, name="federation-proof"),
    path("federation/players/", player_views.kept_apart, name="federation-players"),
    path("federation/players/<int:pk>/match/", player_views.match, name="federation-player-match"),
    path("federation/players/<int:pk>/unmatch/", player_views.unmatch, name="federation-player-unmatch"),
    path("casebooks/", casebook_views.casebook_list, name="casebooks"),
    path("casebooks/<int:pk>/", casebook_views.casebook_detail, name="casebook"),
    path("casebooks/<int:pk>/publish/", casebook_views.casebook_publish, name="casebook-publish"),
    path("casebooks/<int:pk>/finalise/", casebook_views.casebook_finalise, name="casebook-finalise"),
    path("casebooks/<int:pk>/book/", casebook_views.casebook_book, name="casebook-book"),
    path("casebooks/<int:pk>/pdf/", casebook_views.casebook_pdf, name="casebook-pdf"),
    path("casebooks/<int:pk>/book.pdf", casebook_views.casebook_pdf_file, name="casebook-pdf-file"),
    path("casebooks/<int:pk>/book.json", casebook_views.casebook_json, name="casebook-json"),
    path(
        "casebooks/<int:pk>/cases/<int:case_pk>/commentary/", casebook_views.case_commentary, name="casebook-commentary"
    ),
    path("casebooks/<int:pk>/cases/<int:case_pk>/redact/", casebook_views.case_redact, name="casebook-redact"),
    path("casebooks/<int:pk>/cases/<int:case_pk>/remove/", casebook_views.case_remove, name="casebook-remove"),
]

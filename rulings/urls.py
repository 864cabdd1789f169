from django.urls import path

from rulings import irregularity_views, offline_views, revoke_views, unauthorised_views, views

app_name = "rulings"

urlpatterns = [
    path("", views.ruling_list, name="rulings"),
    path("new/", views.ruling_open, name="ruling-open"),
    path("drafts/", offline_views.ruling_drafts, name="ruling-drafts"),
    path("laws/<str:edition>/", offline_views.law_catalogue, name="law-catalogue"),
    path("new/<int:result_pk>/", views.ruling_new, name="ruling-new"),
    path("<int:pk>/edit/", views.ruling_edit, name="ruling-edit"),
    path("<int:pk>/correct/", views.ruling_correct, name="ruling-correct"),
    path("<int:pk>/attachments/<int:attachment_pk>/", views.ruling_attachment, name="ruling-attachment"),
    path("<int:pk>/", views.ruling_detail, name="ruling"),
    path("<int:pk>/give/", views.ruling_give, name="ruling-give"),
    path("<int:pk>/confirm-score/", views.ruling_confirm_score, name="ruling-confirm-score"),
    path("<int:pk>/revoke/", revoke_views.revoke_page, name="ruling-revoke"),
    path("<int:pk>/claim/", revoke_views.claim_page, name="ruling-claim"),
    path("<int:pk>/irregularity/", irregularity_views.irregularity_page, name="ruling-irregularity"),
    path("<int:pk>/unauthorised/", unauthorised_views.unauthorised_page, name="ruling-unauthorised"),
    path("<int:pk>/diagram.svg", views.ruling_svg, name="ruling-svg"),
    path("<int:pk>/ruling.pbn", views.ruling_pbn, name="ruling-pbn"),
]

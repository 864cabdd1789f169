"""The receiving endpoints, included under ``/api/federation/``."""

from django.urls import path

from national.federation import api

urlpatterns = [
    path("head/", api.head, name="federation-head"),
    path("heads/", api.heads, name="federation-heads"),
    path("uploads/<str:digest>/", api.upload, name="federation-upload"),
    path("uploads/<str:digest>/parts/<int:index>/", api.part, name="federation-part"),
    path("uploads/<str:digest>/commit/", api.commit, name="federation-commit"),
]

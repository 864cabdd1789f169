"""The national body's pages; included under ``/national/``."""

from django.urls import path

from appeals import national_views

urlpatterns = [
    path("search/", national_views.search, name="national-search"),
    path("statistics/", national_views.statistics, name="national-statistics"),
]

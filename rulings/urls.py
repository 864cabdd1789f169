from django.urls import path

from rulings import views

urlpatterns = [
    path("", views.ruling_list, name="rulings"),
    path("new/<int:result_pk>/", views.ruling_new, name="ruling-new"),
    path("<int:pk>/", views.ruling_detail, name="ruling"),
    path("<int:pk>/give/", views.ruling_give, name="ruling-give"),
    path("<int:pk>/diagram.svg", views.ruling_svg, name="ruling-svg"),
    path("<int:pk>/ruling.pbn", views.ruling_pbn, name="ruling-pbn"),
]

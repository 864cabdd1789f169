from django.urls import path

from appeals import filing_views, hall_views, step_views, views

app_name = "appeals"

urlpatterns = [
    path("", views.appeal_home, name="appeals"),
    path("lodge/<int:ruling_pk>/", views.lodge, name="appeal-lodge"),
    path("mine/", views.my_page, name="appeals-mine"),
    path("board/<int:pk>/", views.notice_board_page, name="notice-board"),
    path("board/<int:pk>/hall-address/", hall_views.hall_address, name="hall-address"),
    path("request/<int:ruling_pk>/", views.request_appeal, name="appeal-request"),
    path("memo/<int:ruling_pk>/", filing_views.memo, name="memo"),
    path("filings/<int:tournament_pk>/", filing_views.register, name="filings"),
    path("<int:pk>/", views.appeal_detail, name="appeal"),
    path("<int:pk>/form/", views.appeal_form, name="appeal-form"),
]
# One door per step of a case, each posted to by its form on the case page: "case-concurrence", ...
urlpatterns += [path(f"<int:pk>/{name}/", view, name=f"case-{name}") for name, view in step_views.STEPS]

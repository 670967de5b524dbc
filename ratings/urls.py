from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("calculator/", views.calculator, name="calculator"),
    path("calculator.json", views.calculator_json, name="calculator_json"),
    path("methods/", views.methods_page, name="methods"),
    path("compare/", views.compare, name="compare"),
]

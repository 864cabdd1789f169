"""Issue #30: a strict Content-Security-Policy and a Permissions-Policy on every response, and
no inline script or style anywhere a page comes from. The role matrix (tests/test_role_matrix.py)
checks every page and API answer for every role with tests/security.py; this module checks the
templates themselves and the answers the matrix leaves out (login, admin, API docs, errors)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import make_user
from tests.security import header_problems, inline_code, page_problems

ROOT = Path(settings.BASE_DIR)


def project_templates():
    """Every template of the project: templates/ and each app's own templates folder."""
    folders = [ROOT / "templates"] + [p for p in ROOT.glob("*/templates") if ".venv" not in p.parts]
    return sorted(path for folder in folders for path in folder.rglob("*.html"))


def test_no_template_has_inline_script_or_style():
    templates = project_templates()
    assert len(templates) > 50
    found = [
        f"{path.relative_to(ROOT)}:{number}: {kind}: {line}"
        for path in templates
        for kind, number, line in inline_code(path.read_text())
    ]
    assert found == [], "inline code the Content-Security-Policy would block:\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_inline_code():
    html = """<script>alert(1)</script>
<script src="/static/js/x.js"></script>
<script type="application/json" id="data">{}</script>
<style>p {}</style>
<p class="a" style="color: red">
<select onchange="this.form.submit()">
<a href="javascript:go()">"""
    assert [(kind, number) for kind, number, _ in inline_code(html)] == [
        ("inline script", 1),
        ("<style> element", 4),
        ("style attribute", 5),
        ("event handler attribute", 6),
        ("javascript: address", 7),
    ]


def test_the_policy_is_strict():
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert directives["script-src"] == ["'self'"] and directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"] and directives["form-action"] == ["'self'"]


@pytest.mark.django_db
def test_the_answers_outside_the_role_matrix_carry_the_headers():
    admin = make_user("root", is_superuser=True, is_staff=True)
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(admin)
    answers = {
        "login page": anonymous.get("/login/"),
        "a wrong password": anonymous.post("/login/", {"username": "root", "password": "wrong"}),
        "home, signed out (redirect)": anonymous.get("/"),
        "a page that does not exist": anonymous.get("/no-such-page/"),
        "an API address that does not exist": anonymous.get("/api/v1/no-such-thing/"),
        "the API refusing an anonymous reader": anonymous.get("/api/v1/tournaments/"),
        "the language switch": anonymous.post("/i18n/setlang/", {"language": "he", "next": "/login/"}),
        "the admin's login": anonymous.get("/admin/login/"),
        "the admin": signed_in.get("/admin/"),
        "the admin's user list": signed_in.get("/admin/auth/user/"),
        "the API docs": signed_in.get("/api/docs/"),
        "the API docs' script": signed_in.get("/api/docs/?script="),
        "the API schema": signed_in.get("/api/schema/"),
        "the home page": signed_in.get("/"),
    }
    problems = []
    for name, response in answers.items():
        problems += header_problems(response, f"{name} ({response.status_code})")
    assert problems == []


@pytest.mark.django_db
def test_the_api_docs_page_has_no_inline_code_and_its_script_is_its_own_address():
    client = Client()
    client.force_login(make_user("reader"))
    page = client.get("/api/docs/")
    assert page.status_code == 200 and b"swagger-ui" in page.content
    assert page_problems(page, "/api/docs/") == []
    assert b'src="/api/docs/?script=' in page.content
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content

"""The pages a refused or lost reader lands on: the refusal's own words in the reader's
language, in the site's frame with a way home, never Django's bare "403 Forbidden" (issue #42)."""

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _refused(client, user, url, language):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url)


def test_a_refusal_says_why_in_the_readers_language(client, record, people):
    response = _refused(client, people.director, reverse("national:national-home"), "en")
    page = response.content.decode()
    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in page
    assert "Only the national body&#x27;s auditors may read these pages." in page
    assert f'href="{reverse("home")}"' in page
    response = _refused(client, people.director, reverse("national:national-home"), "he")
    page = response.content.decode()
    assert response.status_code == 403
    assert 'dir="rtl"' in page
    assert "רק המבקרים של הגוף הארצי רשאים לקרוא דפים אלה." in page
    assert "אין הרשאה" in page


def test_a_record_one_may_not_see_answers_a_page_that_names_nothing(client, record, people):
    client.force_login(people.outsider)
    response = client.get(reverse("scoring:tournament", args=[record.tournament.pk]))
    page = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in page
    assert "There is no such page, or it is not one you may see." in page
    assert record.tournament.name not in page

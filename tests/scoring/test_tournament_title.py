"""The tournament page's browser title is its name as text (issue #42, item 7): the page put the
offline notice's markup inside its title block, so the tab read raw HTML."""

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_title_is_the_tournaments_name(client, record, people):
    client.force_login(people.director)
    page = client.get(f"/tournaments/{record.tournament.pk}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert title.strip() == record.tournament.name
    assert page.count('id="offline-keep"') == 1

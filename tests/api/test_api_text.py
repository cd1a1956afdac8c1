"""Text at the API's door: its text fields refuse and tidy what the pages' forms do, in the
request's language, and its schema tells integrators each limit."""

import pytest
import yaml
from django.utils import translation
from rest_framework import serializers

from api.fields import model_text
from clubs import services as club_services
from clubs.models import Club, Player
from clubs.text_fields import NAME_LENGTH, PROSE_LENGTH
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

TWO_MB = "x" * (2 * 1024 * 1024)


def test_a_two_megabyte_description_is_refused_by_the_apis_field_in_the_readers_language():
    description = model_text(Club, "description")
    with translation.override("ru"), pytest.raises(serializers.ValidationError) as refused:
        description.run_validation(TWO_MB)
    assert refused.value.detail == [f"Не больше {PROSE_LENGTH} символов, пожалуйста (здесь {len(TWO_MB)})."]
    with translation.override("kk"), pytest.raises(serializers.ValidationError) as refused:
        description.run_validation("ы" * (PROSE_LENGTH + 1))
    assert refused.value.detail == [f"Ең көбі {PROSE_LENGTH} таңба болсын (мұнда {PROSE_LENGTH + 1})."]


def test_the_apis_name_field_refuses_invisible_names_and_tidies_the_rest():
    name = model_text(Player, "display_name")
    for typed in ("\u200b\u200d", "\u3164", "\u2800"):
        with translation.override("uk"), pytest.raises(serializers.ValidationError) as refused:
            name.run_validation(typed)
        assert "Напишіть літерами або цифрами" in str(refused.value.detail[0])
    assert name.run_validation("\u202eАсель\x00 Жумабаева") == "Асель Жумабаева"


def test_the_schema_shows_each_limit(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    club = schema["components"]["schemas"]["Club"]["properties"]
    assert club["description"]["maxLength"] == PROSE_LENGTH and club["name"]["maxLength"] == NAME_LENGTH
    player_filters = {p["name"]: p for p in schema["paths"]["/api/v1/players/"]["get"]["parameters"]}
    assert player_filters["name"]["schema"]["maxLength"] == NAME_LENGTH


def test_a_name_filter_over_a_names_length_is_refused_and_invisible_letters_still_find(client):
    club_services.create_club(actor=UserFactory(), name="Альфа")
    too_long = client.get("/api/v1/clubs/", {"name": "ы" * (NAME_LENGTH + 1)}, HTTP_ACCEPT_LANGUAGE="ru")
    assert too_long.status_code == 400
    assert too_long.json()["fields"]["name"] == [f"Не больше {NAME_LENGTH} символов, пожалуйста (здесь 121)."]
    found = client.get("/api/v1/clubs/", {"name": "Аль\u200bфа"}).json()
    assert [c["name"] for c in found["results"]] == ["Альфа"]

"""factory_boy factories for accounts, players and clubs."""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Club, ClubPlayer, Membership, Player, PlayerInvitation, Role

PASSWORD = "bilka-test-pass-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Игрок {n}")
    city = "Успенка"


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Клуб {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Успенка"
    description = "Играем по пятницам."


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.MEMBER


class ClubPlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubPlayer

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    added_as = factory.LazyAttribute(lambda o: o.player.display_name)


class PlayerInvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerInvitation

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))

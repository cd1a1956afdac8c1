"""Demo data for a fresh site: the Uspenka club with its owner, organiser, members and village players.

Idempotent: running it again finds what it made before and adds only what is missing. Every
change goes through the services, so the audit log reads like a real organiser's evening.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import services
from clubs.models import Club, Membership, Player, Role

DEMO_PASSWORD = "bilka-demo"  # noqa: S105 - a published demo password, printed on purpose

ACCOUNTS = [
    # username, email, display name, city
    ("demo", "demo@bilka.local", "Нұрлан Ахметов", "Успенка"),
    ("organiser", "organiser@bilka.local", "Жанар Сәрсенова", "Успенка"),
    ("asel", "asel@bilka.local", "Әсел Жұмабаева", "Успенка"),
    ("oleh", "oleh@bilka.local", "Олег Ткаченко", "Успенка"),
    ("ivan", "ivan@bilka.local", "Иван Петров", "Павлодар"),
    # members of Uspenka who play its online tournament (all four players of a live table need accounts)
    ("timur", "timur@bilka.local", "Тимур Бекенов", "Успенка"),
    ("dana", "dana@bilka.local", "Дана Серікова", "Успенка"),
    ("vera", "vera@bilka.local", "Вера Лисенко", "Успенка"),
    ("bogdan", "bogdan@bilka.local", "Богдан Кравчук", "Успенка"),
]

ONLINE_MEMBERS = ("timur", "dana", "vera", "bogdan")

USPENKA_PLAYERS = """Ерлан Қасымов, Успенка
Айгерім Бекова, Успенка
Қайрат Оспанов, Успенка
Сәуле Нұрланқызы, Успенка
Галина Шевченко, Успенка
Мирослава Коваленко, Успенка
Ғалым Тоқтаров, Успенка
Марат Исаев, Успенка
Тетяна Бондар, Успенка
Серік Жақсылықов, Павлодар
"""

PAVLODAR_PLAYERS = """Дмитрий Соколов, Павлодар
Шынар Әбдірахманова, Павлодар
Ілияс Сейітов, Павлодар
Наталья Мельник, Павлодар
"""


class Command(BaseCommand):
    help = "Create the demo clubs, accounts and players (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username, email, name, city in ACCOUNTS:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username=username, email=email, password=DEMO_PASSWORD)
                self.stdout.write(f"  account {username}")
            player = services.ensure_player_for_user(user=user)
            if player.display_name == username:
                services.update_player(actor=user, player=player, display_name=name, city=city)
            users[username] = user

        uspenka = self._club(
            owner=users["demo"],
            name="Успенка",
            city="Успенка",
            description=(
                "Клуб белки села Успенка. Играем по пятницам в Доме культуры с 19:00, "
                "летом — на веранде у школы. Чемпионат села — каждую осень."
            ),
        )
        pavlodar = self._club(
            owner=users["ivan"],
            name="Белка Павлодар",
            city="Павлодар",
            description="Городская лига по белке: вторник и четверг, кафе «Иртыш».",
        )
        self._member(uspenka, users["demo"], users["organiser"], Role.ORGANISER)
        self._member(uspenka, users["demo"], users["asel"], Role.MEMBER)
        self._member(uspenka, users["demo"], users["oleh"], Role.MEMBER)
        for username in ONLINE_MEMBERS:
            self._member(uspenka, users["demo"], users[username], Role.MEMBER)
        self._member(pavlodar, users["ivan"], users["demo"], Role.MEMBER)

        for club, owner in ((uspenka, users["demo"]), (pavlodar, users["ivan"])):
            for user in users.values():
                if Membership.objects.filter(club=club, user=user).exists():
                    services.add_to_roster(actor=owner, club=club, player=user.player)
        created = self._players(users["organiser"], uspenka, USPENKA_PLAYERS)
        created += self._players(users["ivan"], pavlodar, PAVLODAR_PLAYERS)

        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {Club.objects.count()} clubs, {Player.objects.count()} players "
                f"({created} new this run)."
            )
        )
        self.stdout.write(
            f"Log in as demo / {DEMO_PASSWORD} (owner of «Успенка»); "
            f"organiser / {DEMO_PASSWORD} is its organiser; ivan / {DEMO_PASSWORD} owns «Белка Павлодар»."
        )

    def _club(self, *, owner, name, city, description):
        club = Club.objects.filter(name=name).first()
        if club is None:
            club = services.create_club(actor=owner, name=name, city=city, description=description)
            self.stdout.write(f"  club {name}")
        return club

    def _players(self, actor, club, text) -> int:
        """Paste the lines whose players are not on the club's roster yet (none: no paste, so a
        second run writes nothing to the audit log); how many players were created."""
        lines = [line for line in text.splitlines() if line.strip()]
        names = {line.split(",")[0].strip() for line in lines}
        on_roster = set(club.roster.filter(player__display_name__in=names)
                        .values_list("player__display_name", flat=True))
        missing = [line for line in lines if line.split(",")[0].strip() not in on_roster]
        if not missing:
            return 0
        return len(services.bulk_add_players(actor=actor, club=club, text="\n".join(missing)).created)

    def _member(self, club, owner, user, role):
        """The owner invites the account and it accepts, as people do on the site."""
        membership = Membership.objects.filter(club=club, user=user).first()
        if membership is None:
            invitation = services.invite_member(actor=owner, club=club, who=user.get_username(), role=role)
            services.accept_invitation(actor=user, token=invitation.token)

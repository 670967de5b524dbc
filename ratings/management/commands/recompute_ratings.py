from django.core.management.base import BaseCommand

from ratings import services
from ratings.models import RatingTable


class Command(BaseCommand):
    help = "Rebuild every rating table from the whole history of results."

    def handle(self, **options):
        rows = services.recompute_all()
        tables = RatingTable.objects.count()
        self.stdout.write(f"Recomputed {tables} rating tables ({rows} rows).")

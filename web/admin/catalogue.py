"""Players, games, categories and text pages in the admin."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Min
from django.template.response import TemplateResponse

from league import history
from league import services as league_services
from league.models import Category, FormerName, Game, Page, Player
from ratings.models import RatingTable
from ratings.services.catalogue import (
    delete_categories,
    delete_games,
    moved_game_problems,
    save_category,
    save_game,
)
from ratings.services.impact import impact
from ratings.services.players import merge_players, merge_problems, played
from web.pages.club_admin import ClubOwnedAdmin


class FormerNameInline(admin.TabularInline):
    """Names the player went by: kept by a rename, found by the entry page, the import and the search."""

    model = FormerName
    fields = ["name", "until"]
    extra = 0


@admin.register(Player)
class PlayerAdmin(ClubOwnedAdmin):
    list_display = ["short_name", "name", "guest", "first_played"]
    list_filter = ["guest"]
    search_fields = ["short_name", "name", "former_names__name"]
    # The model's ordering, said again: the first-played annotation groups the rows, which drops it,
    # and the autocomplete's pages of players would then come in no set order.
    ordering = ["short_name"]
    inlines = [FormerNameInline]
    actions = ["make_members", "merge"]

    @admin.action(description="Make the selected guests members (on the standings, leaders and movers)")
    def make_members(self, request, queryset):
        """One click: each guest saved as a member through the one service, so it is in the history."""
        made = []
        for player in queryset.filter(guest=True):
            player.guest = False
            league_services.save_player(player)
            made.append(player.short_name)
        if made:
            self.message_user(request, f"Now members: {', '.join(made)}.", messages.SUCCESS)
        else:
            self.message_user(request, "None of the selected players is a guest.", messages.WARNING)

    @admin.action(description="Merge the two selected players (one person entered twice)…")
    def merge(self, request, queryset):
        """Two players chosen in the list: which stays, what the merge would change (the merge run
        and rolled back), then, confirmed, the merge."""
        two = list(queryset.annotate(played=Count("results")).order_by("-played", "pk"))
        if len(two) != 2:
            self.message_user(request, "Select exactly two players to merge.", messages.ERROR)
            return None
        chosen = request.POST.get("keep")
        keep, drop = (two[1], two[0]) if chosen == str(two[1].pk) else (two[0], two[1])
        problems = merge_problems(keep, drop)
        if request.POST.get("confirm") == "merge" and not problems:
            try:
                merge_players(keep, drop)
            except ValidationError as error:
                problems = error.messages
            else:
                self.message_user(request, f"Merged {drop.short_name} into {keep.short_name}.", messages.SUCCESS)
                return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Merge two players",
            "two": two,
            "keep": keep,
            "drop": drop,
            "problems": problems,
            "impact": None if problems else impact(keep.club_id, lambda: merge_players(keep, drop), played(drop)),
            "action": "merge",
            "impact_heading": "What merging changes",
        }
        return TemplateResponse(request, "admin/league/player/merge.html", context)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(first=Min("results__matchday__date"))

    @admin.display(description="First played", ordering="first")
    def first_played(self, player):
        return player.first

    def changeform_view(self, *args, **kwargs):
        with history.one_write():  # the player and their former names: one entry
            return super().changeform_view(*args, **kwargs)

    def save_model(self, request, obj, form, change):
        league_services.save_player(obj)

    def save_formset(self, request, form, formset, change):
        saved = formset.save(commit=False)
        league_services.save_former_names(form.instance, saved, formset.deleted_objects)

    def delete_model(self, request, obj):
        league_services.delete_players([obj])

    def delete_queryset(self, request, queryset):
        league_services.delete_players(queryset)


@admin.register(Category)
class CategoryAdmin(ClubOwnedAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request, obj, form, change):
        save_category(obj)

    def delete_model(self, request, obj):
        delete_categories([obj])

    def delete_queryset(self, request, queryset):
        delete_categories(queryset)


class GameForm(forms.ModelForm):
    def _post_clean(self):
        """A game moved to tables whose methods cannot rate its matchdays is refused on its fields."""
        super()._post_clean()
        if not self.errors:
            for problem in moved_game_problems(self.instance):
                self.add_error("official", problem[0].upper() + problem[1:] + ".")


@admin.register(Game)
class GameAdmin(ClubOwnedAdmin):
    form = GameForm
    list_display = ["name", "category", "official", "scoring"]
    list_filter = ["official", "category"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request, obj, form, change):
        save_game(obj, new_game_method=not change)  # a new game's table on the method for one-round games

    def get_deleted_objects(self, objs, request):
        """A game's rating table goes with it (`delete_games`): the tables' admin deletes none on its
        own, which Django would read as a permission the user lacks, refusing every game's delete."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms_needed - {str(RatingTable._meta.verbose_name)}, protected

    def delete_model(self, request, obj):
        delete_games([obj])

    def delete_queryset(self, request, queryset):
        delete_games(queryset)


@admin.register(Page)
class PageAdmin(ClubOwnedAdmin):
    list_display = ["title", "slug", "position"]
    prepopulated_fields = {"slug": ["title"]}

    def save_model(self, request, obj, form, change):
        league_services.save_page(obj)

    def delete_model(self, request, obj):
        league_services.delete_pages([obj])

    def delete_queryset(self, request, queryset):
        league_services.delete_pages(queryset)

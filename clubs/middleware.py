"""Remember the language a signed-in user uses the site in, for what is written to him later."""

from __future__ import annotations

from django.contrib.auth import get_user_model

SESSION_KEY = "bilka_language_saved"


class RememberLanguage:
    """After LocaleMiddleware and AuthenticationMiddleware: when a signed-in user's active language
    differs from the one last saved for his session, save it on his account (one UPDATE when he
    signs in or switches language, nothing on other requests). Notices the beat and the workers
    write to him (`tournaments.day_services.notify`) are then in his language, not the server's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        language = getattr(request, "LANGUAGE_CODE", "")
        signed_in = user is not None and user.is_authenticated
        if signed_in and language and request.session.get(SESSION_KEY) != language:
            if user.language != language:
                get_user_model().objects.filter(pk=user.pk).update(language=language)
                user.language = language
            request.session[SESSION_KEY] = language
        return self.get_response(request)

"""Internationalisation (docs/i18n.md): which languages the server speaks, which one a reader
gets, the gettext catalogs for each, and numbers, dates and plural forms in each language's
own forms. One job a module:

* :mod:`app.i18n.locales`: the supported languages and their own names, and the pseudo-locale;
* :mod:`app.i18n.negotiate`: a reader's language from their choice, a cookie and the browser;
* :mod:`app.i18n.catalogs`: the compiled catalogs (``messages`` and ``js``) of each language;
* :mod:`app.i18n.plurals`: plural forms, by the catalog's rule and by CLDR's categories;
* :mod:`app.i18n.formats`: numbers and dates through Babel;
* :mod:`app.i18n.messages`: server messages marked for translation, worded when they are sent;
* :mod:`app.i18n.jinja`: the templates' gettext and filters, one reader's language per render;
* :mod:`app.i18n.browser`: the browser client's catalog as JSON;
* :mod:`app.i18n.pseudo`: the pseudo-locale ``qps``, made from the templates of the catalogs.
"""

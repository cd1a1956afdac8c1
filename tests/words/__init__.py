"""Words on the page: every page in Russian, Kazakh and Ukrainian, with no English left in it."""

"""The platform every feature's pages stand on: security headers and cookies, the page's
language and theme, error pages, content-named static files, the PWA's manifest and service
worker, health, request guards, JSON bodies, form and paging helpers, and SVG charts. It
imports no feature; the app is assembled in `scorekeeper.blueprints`."""

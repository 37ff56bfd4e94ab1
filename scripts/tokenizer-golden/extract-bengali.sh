#!/bin/sh
# Extracts real Bengali text from Debian's LibreOffice Bengali translation package and picks the
# sentences of bengali-strings.json. Needs apt-get (download only, no installation), dpkg-deb,
# msgunfmt (package gettext) and node.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download libreoffice-l10n-bn
dpkg -x libreoffice-l10n-bn_*.deb extracted
for mo in extracted/usr/lib/libreoffice/program/resource/bn/LC_MESSAGES/*.mo; do
    msgunfmt "$mo" > "$(basename "$mo" .mo).po"
done
node "$here/pick-bengali.js" "$here/bengali-strings.json" ./*.po

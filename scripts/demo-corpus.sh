#!/usr/bin/env bash
# Builds a Bengali demo corpus from the Bengali translations that Debian packages ship
# (LibreOffice, Firefox ESR, GTK, GLib, iso-codes, ...): one text per line, Bengali lines only,
# markup and placeholders removed, deduplicated, grouped into documents of 16 consecutive strings of one
# catalogue (blank-line separated, read with `--documents paragraphs`) so that training packs related
# strings into full sequences, and split deterministically by document into train.txt and valid.txt.
#
# Usage: scripts/demo-corpus.sh [--out DIR] [--force]
#   --out DIR   output folder (default: <repo>/build/data/demo-corpus)
#   --force     rebuild even when DIR already holds a complete corpus
#
# Idempotent: a complete corpus is marked by DIR/.complete and is not rebuilt. Offline except for
# `apt-get download` of the packages from the configured Debian mirror. Needs root (or sudo) only to
# install missing tools (gettext, unzip) or to refresh apt's package lists.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$here/build/data/demo-corpus"
force=0
while (($#)); do
  case "$1" in
    --out)
      [ $# -ge 2 ] || { echo "demo-corpus.sh: --out needs a folder" >&2; exit 2; }
      out=$2; shift ;;
    --force) force=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "demo-corpus.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

# Packages with Bengali (bn, bn_BD, bn_IN) message catalogues or language packs. Together they give
# well over 20,000 distinct Bengali lines; the LibreOffice and Firefox language packs give the most.
packages=(
  libreoffice-l10n-bn  # LibreOffice UI: program/resource/bn/LC_MESSAGES/*.mo
  firefox-esr-l10n-bn  # Firefox: a language-pack .xpi (zip) of Fluent .ftl and .properties files
  libgtk-3-common      # GTK 3 messages and widget property descriptions
  libgtk2.0-common     # GTK 2 messages and widget property descriptions
  libglib2.0-data      # GLib/GIO messages
  iso-codes            # names of languages, countries, currencies and scripts
  gnome-control-center-data
  nautilus-data
  gnome-shell-common
  evolution-data-server-common
)
min_lines=20000

stamp="$out/.complete"
# The stamp names the layout, so a corpus written in an older layout is rebuilt.
layout="layout paragraphs-16"
if ((!force)) && [ -f "$stamp" ] && grep -qx "$layout" "$stamp" && [ -s "$out/train.txt" ] && [ -s "$out/valid.txt" ]; then
  echo "demo-corpus: $out is complete ($(grep -c . "$out/train.txt") train, $(grep -c . "$out/valid.txt") valid lines); use --force to rebuild"
  exit 0
fi

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

# Tools: msgunfmt/msgexec (gettext) turn .mo catalogues back into strings; unzip opens the .xpi;
# perl (essential on Debian) does the text clean-up.
need=()
command -v msgunfmt >/dev/null || need+=(gettext)
command -v unzip >/dev/null || need+=(unzip)
if ((${#need[@]})); then
  echo "demo-corpus: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
for tool in msgunfmt msgexec unzip perl dpkg-deb apt-get; do
  command -v "$tool" >/dev/null || { echo "demo-corpus: '$tool' is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sahaj-demo-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root"
# apt downloads as the unprivileged _apt user when it can; let it write here.
chmod 0755 "$work"
chmod 0777 "$work/debs"

# A fresh machine may have no package lists yet: refresh them once when the first package is unknown.
if ! apt-cache show "${packages[0]}" >/dev/null 2>&1; then
  echo "demo-corpus: refreshing apt package lists"
  "${as_root[@]}" apt-get update -qq
fi
available=()
for p in "${packages[@]}"; do
  if apt-cache show "$p" >/dev/null 2>&1; then available+=("$p"); else echo "demo-corpus: skipping unknown package $p"; fi
done
echo "demo-corpus: downloading ${#available[@]} packages"
(cd "$work/debs" && apt-get download -q "${available[@]}" >/dev/null)

: >"$work/sources.txt"
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$work/root"
  dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$work/sources.txt"
done

# 1. Raw strings, one per line, in a fixed order (sorted paths) so that the output is reproducible.
raw="$work/raw.txt"
: >"$raw"
export LC_ALL=C
# msgexec's builtin "0" prints each translation followed by NUL; multi-line messages become several lines.
find "$work/root" \( -path '*/locale/bn*/LC_MESSAGES/*.mo' -o -path '*/resource/bn/LC_MESSAGES/*.mo' \) \
  -type f | sort | while read -r mo; do
  msgunfmt "$mo" | msgexec -i - 0 | tr '\0' '\n' >>"$raw"
  printf '\f\n' >>"$raw" # end of a catalogue: documents do not span two
done
mo_lines=$(grep -vc $'^\f$' "$raw")

mkdir -p "$work/xpi"
find "$work/root" -name '*.xpi' -type f | sort | while read -r xpi; do
  unzip -q -o "$xpi" -d "$work/xpi"
done
# Fluent (.ftl): keep the values of messages, attributes and variants; drop ids, comments, selectors.
find "$work/xpi" -name '*.ftl' -type f | sort | while read -r ftl; do
  perl -CSD -ne '
    next if /^\s*#/;
    s/^\s+//; s/\s+$//;
    next if $_ eq "" || /^\}$/;
    if (/^-?[A-Za-z][\w-]*\s*=\s*(.*)$/) { $_ = $1 }
    elsif (/^\.[\w-]+\s*=\s*(.*)$/) { $_ = $1 }
    elsif (/^\*?\[[^\]]*\]\s*(.*)$/) { $_ = $1 }
    print "$_\n";' "$ftl" >>"$raw"
  printf '\f\n' >>"$raw"
done
# .properties: keep the values.
find "$work/xpi" -name '*.properties' -type f | sort | while read -r properties; do
  perl -CSD -ne '
    next if /^\s*[#!]/;
    print "$1\n" if /^\s*[^=:\s]+\s*[=:]\s*(.*?)\s*$/;' "$properties" >>"$raw"
  printf '\f\n' >>"$raw"
done
raw_lines=$(grep -vc $'^\f$' "$raw")
echo "demo-corpus: $raw_lines raw strings ($mo_lines from message catalogues)"

# 2. Clean up, keep Bengali lines, deduplicate (first occurrence wins), group consecutive lines into
#    documents of 16, split train/valid by a hash of the document (FNV-1a, 32 bit).
mkdir -p "$out"
rm -f "$stamp"
perl -CSD -e '
  my ($train_path, $valid_path) = @ARGV;
  open(my $train, ">:encoding(UTF-8)", $train_path) or die "cannot write $train_path: $!";
  open(my $valid, ">:encoding(UTF-8)", $valid_path) or die "cannot write $valid_path: $!";
  my %seen; my ($n_train, $n_valid, $d_train, $d_valid) = (0, 0, 0, 0);
  my @doc;
  # A document never spans two catalogues: the raw stream marks each catalogue with a form feed line.
  my $flush = sub {
    return unless @doc;
    my $text = join("\n", @doc);
    my $h = 0x811c9dc5;
    for my $byte (unpack("C*", do { my $b = $text; utf8::encode($b); $b })) {
      $h = (($h ^ $byte) * 0x01000193) & 0xffffffff;
    }
    if ($h % 100 < 2) { print $valid "$text\n\n"; $n_valid += @doc; $d_valid++ }
    else { print $train "$text\n\n"; $n_train += @doc; $d_train++ }
    @doc = ();
  };
  while (my $s = <STDIN>) {
    if ($s eq "\f\n") { $flush->(); next }
    chomp $s;
    # Markup: tags (keep their text) and the usual entities.
    $s =~ s/<[^<>]*>//g;
    $s =~ s/&(amp|lt|gt|quot|apos|nbsp|#\d+);/ my %e=(amp=>"&",lt=>"<",gt=>">",quot=>"\"",apos=>"\x{27}",nbsp=>" "); exists $e{$1} ? $e{$1} : " " /ge;
    # Placeholders: Fluent placeables, ${VAR}, $(ARG1), %PRODUCTNAME, printf/Qt/GLib formats, #1.
    $s =~ s/\{[^{}]*\}//g;
    $s =~ s/\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_]\w*\$?//g;
    $s =~ s/%\d+\$[-+ #0]*\d*(?:\.\d+)?[hlLqjzt]*[a-zA-Z]//g;
    $s =~ s/%[-+ #0]*\d*(?:\.\d+)?[hlLqjzt]*[diouxXeEfFgGcsSpn@]//g;
    $s =~ s/%[A-Z][A-Z0-9_]+%?//g;
    $s =~ s/%\d+//g;
    $s =~ s/\$\d+\$?//g;
    $s =~ s/%[A-Za-z_]\w*//g;
    $s =~ s/#\d+//g;
    # Accelerators: "(~S)", "(_S)", "(&S)" hints, then ~ and mnemonic _ or & before a character.
    $s =~ s/\s*\([~_&]\w\)//g;
    $s =~ s/~//g;
    $s =~ s/(?<!&)&(?=[^\s&])//g;
    $s =~ s/_(?=\S)//g;
    # Escapes left as text in some catalogues.
    $s =~ s/\\[ntr]/ /g;
    $s =~ s/[\x{200B}\x{FEFF}]//g;
    # Quotes and brackets left empty by a removed placeholder.
    $s =~ s/""|\x{27}\x{27}|\x{201C}\x{201D}|\x{2018}\x{2019}|\(\s*\)|\[\s*\]//g;
    $s =~ s/\s+/ /g; $s =~ s/^ //; $s =~ s/ $//;
    $s =~ s/^[\s:;,.\-]+//;
    next unless $s =~ /[\x{0985}-\x{09B9}\x{09CE}\x{09DC}-\x{09DF}]/;  # at least one Bengali letter
    next if length($s) < 2 || $seen{$s}++;
    push @doc, $s;
    $flush->() if @doc == 16;
  }
  $flush->();
  close($train) or die; close($valid) or die;
  print STDERR "demo-corpus: $n_train train lines in $d_train documents, $n_valid valid lines in $d_valid documents\n";
' "$out/train.txt.part" "$out/valid.txt.part" <"$raw"
mv -f "$out/train.txt.part" "$out/train.txt"
mv -f "$out/valid.txt.part" "$out/valid.txt"
cp "$work/sources.txt" "$out/sources.txt"

train_lines=$(grep -c . "$out/train.txt")
valid_lines=$(grep -c . "$out/valid.txt")
total=$((train_lines + valid_lines))
if ((total < min_lines)); then
  echo "demo-corpus: only $total distinct Bengali lines (expected at least $min_lines); packages changed?" >&2
  exit 1
fi
printf '%s\ntrain %s\nvalid %s\n' "$layout" "$train_lines" "$valid_lines" >"$stamp"
echo "demo-corpus: wrote $out/train.txt ($train_lines lines) and $out/valid.txt ($valid_lines lines)"
echo "demo-corpus: sources in $out/sources.txt"

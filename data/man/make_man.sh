#!/usr/bin/env bash
# make_man.sh CONVIS TEMPLATE LANG VERSION DATE OUT - writes convis's manual
# page in LANG (en, zh) to OUT: TEMPLATE (data/man/convis.LANG.1.in, its
# prose written by hand) with its placeholders filled from `CONVIS --lang
# LANG --help`, so the commands, the options, the actions and the exit
# statuses come from the tables the program itself reads (src/app/cli.c,
# src/app/action_table.c) and cannot drift from them. The build runs it
# (cmake/install.cmake); test_install checks that every option of --help is
# in the page.
#
# The help's shape, as cli.c prints it: a paragraph, then sections, each a
# heading (a line at the margin ending with a colon) and entries ("  NAME
# TEXT", the text's other lines indented further), and a last paragraph, the
# exit statuses. The first section is the usage, the last the actions, the
# ones between the options. Placeholders:
#   @VERSION@ @DATE@   the version and the date of the release
#   @USAGE@            the commands, one .TP each
#   @OPTIONS@          each section of options, a .SS each with its .TP entries
#   @ACTIONS@          the actions --do and lessons take
#   @EXIT@             the exit statuses, a paragraph
set -euo pipefail
convis=$1 template=$2 lang=$3 version=$4 date=$5 out=$6
export LC_ALL=C # bytes: a byte over 127 is part of a character of another script
shopt -u patsub_replacement 2>/dev/null || true # bash 5.2: "&" in a replacement is literal

help=$(ASAN_OPTIONS=detect_leaks=0 "$convis" --lang "$lang" --help)

# roff text: backslashes and hyphen-minus escaped
esc() {
  local s=${1//\\/\\e}
  s=${s//-/\\-}
  printf '%s' "$s"
}
# a line of roff text: none that starts with a control character
line() {
  case "$1" in .* | \'*) printf '\\&%s\n' "$1" ;; *) printf '%s\n' "$1" ;; esac
}

# An entry's name in roff: words with a capital (IMAGE, FILE, WxH) in italics,
# the others (commands, options, action names) in bold, "|" and brackets plain.
name() {
  local word words out="" sep="" core lead trail
  read -ra words <<<"$1"
  for word in "${words[@]}"; do
    lead=${word%%[!\[]*} core=${word#"$lead"}
    trail=${core##*[!],.]} core=${core%"$trail"}
    if [ "$core" = "|" ] || [ -z "$core" ]; then
      out+="$sep$(esc "$lead$core$trail")"
    elif [[ $core == *[A-Z]* ]]; then
      out+="$sep$(esc "$lead")\\fI$(esc "$core")\\fR$(esc "$trail")"
    else
      out+="$sep$(esc "$lead")\\fB$(esc "$core")\\fR$(esc "$trail")"
    fi
    sep=" "
  done
  printf '%s' "$out"
}

# Joins a line of text to the one before: a space between two words of
# Latin letters, none between Chinese characters (or where one side is one).
join() {
  local a=$1 b=$2
  [ -z "$a" ] && { printf '%s' "$b"; return; }
  if [[ ${a: -1} == [[:print:]] && ${b:0:1} == [[:print:]] ]]; then
    printf '%s %s' "$a" "$b"
  else
    printf '%s%s' "$a" "$b"
  fi
}

# The help's parts, in order: sections[i] holds its heading, then its
# entries as roff; exit holds the last paragraph.
sections=() heading="" body="" entry_name="" entry_text="" exit_text="" in_exit=0 seen_heading=0
flush_entry() {
  [ -z "$entry_name" ] && return
  body+=".TP"$'\n'"$(line "$(name "$entry_name")")"$'\n'
  [ -n "$entry_text" ] && body+="$(line "$(esc "$entry_text")")"$'\n'
  entry_name="" entry_text=""
}
flush_section() {
  flush_entry
  [ -n "$heading" ] && sections+=("$heading"$'\n'"$body")
  heading="" body=""
}
while IFS= read -r line; do
  if [ "$in_exit" = 1 ]; then
    exit_text=$(join "$exit_text" "$line")
  elif [ -z "$line" ]; then
    flush_entry
  elif [[ $line == "  "[![:space:]]* ]]; then # an entry: its name, two spaces, its text
    flush_entry
    line=${line#  }
    if [[ $line == *"  "* ]]; then
      entry_name=${line%%  *} entry_text=${line#*  }
      entry_text=${entry_text#"${entry_text%%[! ]*}"}
    else
      entry_name=$line entry_text=""
    fi
  elif [[ $line == "   "* ]]; then # the entry's text goes on
    line=${line#"${line%%[! ]*}"}
    entry_text=$(join "$entry_text" "$line")
  elif [[ $line == *: || $line == *"：" ]]; then # a heading
    flush_section
    heading=${line%:} heading=${heading%"："} seen_heading=1
  elif [ "$seen_heading" = 1 ]; then # the exit statuses, after the last section
    flush_section
    in_exit=1 exit_text=$line
  fi
done <<<"$help"
flush_section
[ ${#sections[@]} -ge 3 ] || { echo "make_man.sh: '$convis --help' has ${#sections[@]} sections, not usage, options and actions" >&2; exit 1; }
[ -n "$exit_text" ] || { echo "make_man.sh: '$convis --help' ends without its exit statuses" >&2; exit 1; }

usage=${sections[0]#*$'\n'}
actions=${sections[${#sections[@]} - 1]#*$'\n'}
options=""
for ((i = 1; i < ${#sections[@]} - 1; ++i)); do
  options+=".SS $(esc "${sections[$i]%%$'\n'*}")"$'\n'"${sections[$i]#*$'\n'}"
done
# without its heading ("Exit status:", "退出状态："): up to the first colon of either kind
latin=${exit_text%%:*} wide=${exit_text%%"："*}
if [ ${#wide} -lt ${#latin} ]; then exit_text=${exit_text#"$wide："}; else exit_text=${exit_text#"$latin:"}; fi
exit_text=${exit_text# }

page=$(<"$template")
page=${page//@VERSION@/$version}
page=${page//@DATE@/$date}
page=${page//@USAGE@/${usage%$'\n'}}
page=${page//@OPTIONS@/${options%$'\n'}}
page=${page//@ACTIONS@/${actions%$'\n'}}
page=${page//@EXIT@/$(line "$(esc "$exit_text")")}
# groff breaks lines at spaces only: after each closing mark of Chinese text
# a place it may break too (\:), as a Chinese line may end there
# (but not before another closing mark, which never starts a line)
marks=("，" "、" "。" "；" "：" "）" "？" "！")
for mark in "${marks[@]}"; do
  page=${page//"$mark"/"$mark\\:"}
done
for mark in "${marks[@]}"; do
  page=${page//"\\:$mark"/"$mark"}
done
printf '%s\n' "$page" >"$out.tmp"
mv "$out.tmp" "$out"

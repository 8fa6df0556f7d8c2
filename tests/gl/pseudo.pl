#!/usr/bin/perl
# pseudo.pl - a pseudo-translation, to find words the window shows that never
# went through the catalogue. Every ASCII letter of a translated string
# becomes an accented look-alike (a -> ā), so the words stay readable and
# about as wide, while a word still in plain ASCII on screen is one that no
# translation touched. printf directives (%s, %1$d, %.3f) and lesson
# placeholders ({gpu_ms}) are kept as they are.
#   pseudo.pl msg     a string on stdin (msgfilter's filter)
#   pseudo.pl yaml    a lesson file on stdin: its title and say texts
#   pseudo.pl check   a --print-state dump on stdin: prints every text run
#                     with a word of plain ASCII letters in it (data such as
#                     names of files, engines and devices aside)
use strict;
use warnings;
use utf8;
binmode STDIN, ':encoding(UTF-8)';
binmode STDOUT, ':encoding(UTF-8)';

my %accent;
@accent{'a' .. 'z'} = split //, 'āƀćďēƒğħīĵķĺṁńōṗǫŕśťūṽŵẋŷź';
@accent{'A' .. 'Z'} = split //, 'ĀƁĆĎĒƑĞĦĪĴĶĹṀŃŌṖǪŔŚŤŪṼŴẊŶŹ';
my $keep = qr/%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGaAcspn%]|\{[a-z_]+\}/;

sub pseudo {
    my ($s) = @_;
    my $out = '';
    while ($s =~ /\G(?:($keep)|(.))/gcs) {
        $out .= defined $1 ? $1 : ($accent{$2} // $2);
    }
    return $out;
}

my $mode = shift // 'msg';
if ($mode eq 'msg') {
    local $/;
    print pseudo(<STDIN> // '');
} elsif ($mode eq 'yaml') {
    while (my $line = <STDIN>) {
        if ($line =~ /^(\s*(?:- )?(?:title|say[a-z-]*):\s*)(.*)$/s) {
            my ($key, $value) = ($1, $2);
            $line = $key . ($value =~ /^[|>]/ ? $value : pseudo($value));
        } elsif ($line !~ /^\s*(?:- )?[a-z_-]+:/) {
            $line = pseudo($line); # a line of a say block
        }
        print $line;
    }
} elsif ($mode eq 'check') {
    # what a translation leaves as it is: data, names and units
    my @data = (
        qr/\b[\w.-]+\.(?:png|jpe?g|gif|pgm|ppm|bmp|tga|yaml|json)\b/i, # files
        qr/\b(?:cpu-seq|cpu-simd|cpu-par|gl|cuda)\b/,                 # engines, as named
        qr/\bllvmpipe\b|\bLLVM [\d.]+, \d+ bits\b|\bLLV?M?…/,         # the device, as its driver names it
        qr/\b(?:AVX2|AVX-512|AVX512|AVX|SSE\d?(?:\.\d)?|NEON|scalar)\b/, # vector units, as the CPU names them
        qr/\b(?:ms|µs|ns|MiB|KiB|GiB|GB\/s|MB|KB|px|Mpx)\b/,       # units
        qr/\b(?:F1|Esc|Shift|Ctrl|Space|Enter|End|Home|PageUp|PageDown|Tab)\b/, # keys, as printed on them
        qr/\bconvis\b/,
    );
    # the GPUs of the bounds, as records/datasheets.json names them
    (my $datasheets = __FILE__) =~ s{[^/]*$}{../../records/datasheets.json};
    if (open(my $f, '<:encoding(UTF-8)', $datasheets)) {
        while (my $l = <$f>) {
            push @data, qr/\Q$1\E/ if $l =~ /"short":\s*"([^"]+)"/;
        }
        close $f;
    } else {
        die "pseudo.pl: cannot read $datasheets: $!\n";
    }
    while (my $line = <STDIN>) {
        next unless $line =~ /^text=(?:[^,]*,){5}(.*)$/;
        my $text = $1;
        my $rest = $text;
        $rest =~ s/$_/ /g for @data;
        print "$text\n" if $rest =~ /[A-Za-z]{2,}/;
    }
} else {
    die "pseudo.pl: msg, yaml or check, not '$mode'\n";
}

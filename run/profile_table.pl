#!/usr/bin/env perl
# The per-operator table of a profiled run (`make run ... PROFILE=1`,
# run/run.sh):
#   run/profile_table.pl RUN_LOG [UNPROFILED_INSTRUCTIONS [PROFILE.json]]
# RUN_LOG is the console of run/firmware.cpp built with ARENAPLAN_PROFILE
# under QEMU -icount shift=0: its "figures" line gives the counter ticks of
# the calibration loop (2 x 1000000 + 1 instructions), its "profile" lines
# the ticks of back-to-back marks and of every step (run/firmware.cpp).
# A step's instructions: (its ticks - one mark's ticks) x instructions per
# tick; one line per step with the step's operators (the file's indices),
# instructions, % of the steps' sum, the bytes of the plan's records alive
# at the step and the constant bytes its lowering emitted. Then the sum;
# with UNPROFILED_INSTRUCTIONS (run.sh's instructions.txt of the same
# model without marks) the difference, and exit 1 when it is more than 1 %.
# With PROFILE.json (may follow an empty UNPROFILED_INSTRUCTIONS) the same
# figures as JSON: {"total": the steps' sum, "unprofiled": N or null,
# "operators": [{"index": the step's first operator (the file's index),
# "last": its last, "name": ..., "instructions": N, "live_bytes": N,
# "constant_bytes": N}, ...]}, which `arenaplan report --profile` reads.
# Exit 2 when RUN_LOG lacks the lines.
use strict;
use warnings;

die "usage: run/profile_table.pl RUN_LOG [UNPROFILED_INSTRUCTIONS [PROFILE.json]]\n"
  unless @ARGV >= 1 && @ARGV <= 3;
my ($log, $unprofiled, $json) = @ARGV;
open(my $in, '<', $log) or die "profile: cannot read $log: $!\n";
my ($ticks, $calibration, $hook_ticks, $hook_marks);
my $wrapped = 0;  # the marked inference took more than SysTick's 2^24 ticks
my @steps;
while (<$in>) {
  if (/_(?:cycles|ticks)=(\d+) calibration=(\d+)/) {
    ($ticks, $calibration) = ($1, $2);
    $wrapped = 1 if / wrapped=1$/;
  } elsif (/^profile hook_ticks=(\d+) hook_marks=(\d+)$/) {
    ($hook_ticks, $hook_marks) = ($1, $2);
  } elsif (/^profile step=(\d+) ticks=(\d+) first=(\d+) last=(\d+) constant=(\d+) live=(\d+) name=(.*)$/) {
    my $name = $7;
    $name =~ s/[^A-Za-z0-9_+]/?/g;  # printed to a terminal
    push @steps, { step => $1, ticks => $2, first => $3, last => $4,
                   constant => $5, live => $6, name => $name };
  }
}
close($in);
if (!$calibration || !$hook_marks || !@steps) {
  print STDERR "profile: $log has no figures, hook or step lines\n";
  exit 2;
}
sub group {  # 1234567 -> 1,234,567 (negative too)
  my $n = reverse sprintf('%.0f', shift);
  $n =~ s/(\d{3})(?=\d)(?!\d*-)/$1,/g;
  return scalar reverse $n;
}
my $per_tick = 2000001 / $calibration;  # instructions per counter tick
my $hook = $hook_ticks / $hook_marks;   # ticks of one mark
my $sum = 0;
for my $s (@steps) {
  $s->{instructions} = ($s->{ticks} - $hook) * $per_tick;
  $sum += $s->{instructions};
}
printf "%4s  %-9s  %12s  %6s  %10s  %14s  %s\n", 'step', 'operators',
  'instructions', '%', 'live bytes', 'constant bytes', 'name';
for my $s (@steps) {
  my $ops = $s->{first} == $s->{last} ? $s->{first} : "$s->{first}..$s->{last}";
  printf "%4d  %-9s  %12s  %6.2f  %10s  %14s  %s\n", $s->{step}, $ops,
    group($s->{instructions}), $sum > 0 ? 100 * $s->{instructions} / $sum : 0,
    group($s->{live}), group($s->{constant}), $s->{name};
}
printf "sum of the %d steps: %s instructions (one mark: %.1f instructions, "
  . "subtracted from each step; the marked inference: %s)\n", scalar @steps,
  group($sum), $hook * $per_tick,
  $wrapped ? 'over 2^24 counter ticks, not measured' : group($ticks * $per_tick);
if (defined $json && $json ne '') {
  open(my $out, '>', "$json.tmp") or die "profile: cannot write $json: $!\n";
  my @ops = map {
    sprintf('{"index": %d, "last": %d, "name": "%s", "instructions": %.0f, '
      . '"live_bytes": %d, "constant_bytes": %d}', $_->{first}, $_->{last},
      $_->{name}, $_->{instructions} < 0 ? 0 : $_->{instructions},
      $_->{live}, $_->{constant})
  } @steps;
  printf $out "{\"total\": %.0f, \"unprofiled\": %s, \"operators\": [\n  %s\n]}\n",
    $sum, (defined $unprofiled && $unprofiled =~ /^\d+$/) ? $unprofiled : 'null',
    join(",\n  ", @ops);
  close($out) or die "profile: cannot write $json: $!\n";
  rename("$json.tmp", $json) or die "profile: cannot write $json: $!\n";
}
exit 0 if !defined $unprofiled || $unprofiled eq '';
die "profile: unprofiled count '$unprofiled' is not a number\n"
  unless $unprofiled =~ /^\d+$/ && $unprofiled > 0;
my $diff = 100 * ($sum - $unprofiled) / $unprofiled;
my $ok = abs($diff) <= 1;
printf "unprofiled inference: %s instructions; the sum differs by %+.3f %% "
  . "(bound 1 %%): %s\n", group($unprofiled), $diff, $ok ? 'PASS' : 'FAIL';
exit($ok ? 0 : 1);

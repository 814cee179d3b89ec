#!/usr/bin/env perl
# The instruction mix of one inference (`make mix`, run/mix.sh):
#   run/instruction_mix.pl OBJDUMP ELF TRACE_LOG
# TRACE_LOG is QEMU's log of the firmware (run/firmware.cpp) run with
# `-d in_asm,exec,nochain`: every translated block's code once ("IN:" and
# one line per instruction), then one "Trace" line per execution of a block
# (nochain: no block jumps to the next without a line). The counted window
# is the call of model::Invoke in main: from the first execution of the
# block at Invoke's entry (included) to the first execution of the block at
# the call's return address (excluded), SysTick interrupts inside the
# window included.
#
# QEMU's own disassembler does not know every Armv8.1-M instruction, so a
# block's lines give only its byte range [first address, last address +
# last line's bytes); the instructions in that range are read from
# OBJDUMP's disassembly of ELF, which knows them all.
#
# Classes, by mnemonic and operands (objdump's spelling):
#   vector   an M-profile Vector Extension (Helium) instruction: a "v"
#            mnemonic with a q register operand, one of the predication
#            instructions (vctp, vpst, vpt, vpnot), or a move to or from
#            the predicate registers VPR and P0 (vmsr/vmrs of system
#            registers 0xc and 0xd, which objdump prints as "<impl def>")
#   fp       any other "v" mnemonic: scalar floating point, moves of s and
#            d registers, and the saves of the callee-saved FP/vector
#            registers (vpush/vpop of d8-d15, that is q4-q7)
#   loop     the low-overhead loop instructions (wls, dls, le, wlstp,
#            dlstp, letp)
#   scalar   everything else (the DSP extension's SIMD on core registers,
#            such as smlad or sxtb16, is scalar here)
# Prints one line:
#   mix instructions=N vector=V fp=F loop=L scalar=S
# and exits 2 when the window is not found.
use strict;
use warnings;

die "usage: run/instruction_mix.pl OBJDUMP ELF TRACE_LOG\n" unless @ARGV == 3;
my ($objdump, $elf, $trace) = @ARGV;

# Address -> class of every instruction of ELF; Invoke's entry and the
# address after the call to it.
my (%class, $invoke, $return_at, $prev_call_to_invoke);
open(my $dis, '-|', $objdump, '-d', $elf) or die "mix: cannot run $objdump: $!\n";
while (<$dis>) {
  next unless /^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4}\s)+)\s*(\S+)\s*(.*)$/;
  my ($addr, $mnemonic, $operands) = (hex($1), $3, $4);
  if (defined $prev_call_to_invoke) {
    $return_at = $addr;
    undef $prev_call_to_invoke;
  }
  $class{$addr} = Classify($mnemonic, $operands);
  $prev_call_to_invoke = 1
    if !defined $return_at && $mnemonic =~ /^blx?$/
    && $operands =~ /<_ZN5model6InvokeEPa>/;
}
close($dis);
open($dis, '-|', $objdump, '-t', $elf) or die "mix: cannot run $objdump: $!\n";
while (<$dis>) {
  $invoke = hex($1) & ~1 if /^([0-9a-f]+)\s.*\s_ZN5model6InvokeEPa$/;
}
close($dis);
die "mix: $elf: no model::Invoke or no call to it\n"
  unless defined $invoke && defined $return_at;

sub Classify {
  my ($m, $ops) = @_;
  $m =~ s/\..*$//;    # vmladav.s8 -> vmladav, add.w -> add
  return 'loop' if $m =~ /^(wls|dls|le|wlstp|dlstp|letp)$/;
  return 'vector' if $m =~ /^(vctp|vpst|vpt|vpnot)/;
  return 'vector'
    if $m =~ /^vm(sr|rs)$/ && $ops =~ /(impl def 0x[cd]>|\bp0\b|\bvpr\b)/i;
  if ($m =~ /^v/) {
    return 'vector' if $ops =~ /\bq[0-7]\b/;
    return 'fp';
  }
  return 'scalar';
}

# Block start -> the classes of its instructions, from the latest "IN:".
my (%block, @lines, %count);
my ($counting, $done, $found) = (0, 0, 0);
open(my $log, '<', $trace) or die "mix: cannot read $trace: $!\n";
sub EndBlock {
  return unless @lines;
  my $first = $lines[0][0];
  my ($last, $bytes) = @{$lines[-1]};
  my @classes;
  for (my $a = $first; $a < $last + $bytes; $a += 2) {
    push @classes, $class{$a} if exists $class{$a};
  }
  $block{$first} = \@classes;
  @lines = ();
}
while (<$log>) {
  if (/^0x([0-9a-f]+):\s+((?:[0-9a-f]{4}\s)+)/) {
    my @halves = split ' ', $2;
    push @lines, [hex($1), 2 * @halves];
    next;
  }
  EndBlock();
  next unless /^Trace \d+: \S+ \[[0-9a-f]+\/([0-9a-f]+)\//;
  my $pc = hex($1);
  if (!$counting && !$done && $pc == $invoke) {
    ($counting, $found) = (1, 1);
  } elsif ($counting && $pc == $return_at) {
    ($counting, $done) = (0, 1);
  }
  next unless $counting;
  die "mix: $trace: block 0x" . sprintf('%x', $pc) . " executed before its code\n"
    unless exists $block{$pc};
  $count{$_}++ for @{$block{$pc}};
}
close($log);
die "mix: $trace: no complete call of model::Invoke\n" unless $found && $done;
my $total = 0;
$total += $_ for values %count;
printf "mix instructions=%d vector=%d fp=%d loop=%d scalar=%d\n", $total,
  map { $count{$_} // 0 } qw(vector fp loop scalar);

// RUN: %loops-cpp %s | not %fusec-translate --stn-to-cpp 2>&1 | FileCheck %s

// The blocked layout keeps a table of block offsets per field shape gathered
// through a connectivity, at most 8 per table (HostTable::compute_block_offsets):
// a program needing more is refused, not miscompiled.

stn.connectivity @E2C : Edge -> Cell [2]
stn.connectivity @C2S2 : Cell -> Edge [2]
stn.connectivity @C2S3 : Cell -> Edge [3]
stn.connectivity @C2S4 : Cell -> Edge [4]
stn.connectivity @C2S5 : Cell -> Edge [5]
stn.connectivity @C2S6 : Cell -> Edge [6]
stn.connectivity @C2S7 : Cell -> Edge [7]
stn.connectivity @C2S8 : Cell -> Edge [8]

// CHECK: error: the blocked layout supports at most 8 field shapes read through connectivity 'E2C' per program
stn.program @many_shapes(%full: !stn.field<Cell x K x f64> {stn.name = "full"},
    %half: !stn.field<Cell x KHalf x f64> {stn.name = "half"},
    %g2: !stn.field<Cell x C2S2[2] x f64> {stn.name = "g2"},
    %g3: !stn.field<Cell x C2S3[3] x f64> {stn.name = "g3"},
    %g4: !stn.field<Cell x C2S4[4] x f64> {stn.name = "g4"},
    %g5: !stn.field<Cell x C2S5[5] x f64> {stn.name = "g5"},
    %g6: !stn.field<Cell x C2S6[6] x f64> {stn.name = "g6"},
    %g7: !stn.field<Cell x C2S7[7] x f64> {stn.name = "g7"},
    %g8: !stn.field<Cell x C2S8[8] x f64> {stn.name = "g8"},
    %o: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "o"},
    %edges: i32 {stn.name = "edges"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "gather" on Edge[%c0 : %edges] K[%c0 : %n] {
  ^bb0(%e: !stn.point<Edge>):
    %j = arith.constant 0 : index
    %c = stn.neighbor %e through @E2C [%j] : !stn.point<Edge> -> !stn.point<Cell>
    %x0 = stn.load %full[%c, k] : !stn.field<Cell x K x f64>
    %x1 = stn.load %half[%c, k] : !stn.field<Cell x KHalf x f64>
    %s0 = arith.addf %x0, %x1 : f64
    %y2 = stn.load %g2[%c, nbr %j] : !stn.field<Cell x C2S2[2] x f64>
    %s2 = arith.addf %s0, %y2 : f64
    %y3 = stn.load %g3[%c, nbr %j] : !stn.field<Cell x C2S3[3] x f64>
    %s3 = arith.addf %s2, %y3 : f64
    %y4 = stn.load %g4[%c, nbr %j] : !stn.field<Cell x C2S4[4] x f64>
    %s4 = arith.addf %s3, %y4 : f64
    %y5 = stn.load %g5[%c, nbr %j] : !stn.field<Cell x C2S5[5] x f64>
    %s5 = arith.addf %s4, %y5 : f64
    %y6 = stn.load %g6[%c, nbr %j] : !stn.field<Cell x C2S6[6] x f64>
    %s6 = arith.addf %s5, %y6 : f64
    %y7 = stn.load %g7[%c, nbr %j] : !stn.field<Cell x C2S7[7] x f64>
    %s7 = arith.addf %s6, %y7 : f64
    %y8 = stn.load %g8[%c, nbr %j] : !stn.field<Cell x C2S8[8] x f64>
    %s8 = arith.addf %s7, %y8 : f64
    stn.write %s8 to %o at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

// Every feature the emitters handle, in one kernel-form module: the compile
// tests translate it with each emitter and compile the result.

stn.connectivity @C2E : Cell -> Edge [3]
stn.connectivity @C2E2C : Cell -> Cell [3] skip
stn.connectivity @C2E2CO : Cell -> Cell [4] skip
stn.connectivity @E2C : Edge -> Cell [2]
stn.connectivity @E2C2V : Edge -> Vertex [4] skip
stn.connectivity @V2E : Vertex -> Edge [6] skip

stn.program @nabla(%theta: !stn.field<Cell x K x f64> {stn.name = "theta"},
    %u: !stn.field<Vertex x K x f64> {stn.name = "u_vert"},
    %pn: !stn.field<Edge x E2C2V[4] x K x f64> {stn.name = "pn"},
    %off: !stn.field<Edge x K x i32> {stn.name = "vert_off"},
    %z: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "z_out"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %top = arith.subi %n, %c1 : i32
  stn.kernel "nabla" on Edge[%lo : %hi] K[%c1 : %top] {
  ^bb0(%e: !stn.point<Edge>):
    %s1 = arith.constant 1 : index
    %s3 = arith.constant 3 : index
    %c = stn.neighbor %e through @E2C [%s1] : !stn.point<Edge> -> !stn.point<Cell>
    %v = stn.neighbor %e through @E2C2V [%s3] : !stn.point<Edge> -> !stn.point<Vertex>
    %a = stn.load %theta[%c, k - 1] : !stn.field<Cell x K x f64>
    %b = stn.load %u[%v, k + 1] : !stn.field<Vertex x K x f64>
    %p = stn.load %pn[%e, nbr %s3, k] : !stn.field<Edge x E2C2V[4] x K x f64>
    %o = stn.load %off[%e, k] : !stn.field<Edge x K x i32>
    %d = stn.load %theta[%c, k + %o - 2] : !stn.field<Cell x K x f64>
    %bp = arith.mulf %b, %p : f64
    %s = arith.addf %a, %bp : f64
    %r = arith.addf %s, %d : f64
    stn.write %r to %z at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.return
}

stn.program @rot(%vn: !stn.field<Edge x K x f64> {stn.name = "vn"},
    %w: !stn.field<Vertex x V2E[6] x f64> {stn.name = "w"},
    %rot: !stn.field<Vertex x K x f64> {stn.intent = 1 : i32, stn.name = "rot"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "rot" on Vertex[%lo : %hi] K[%c0 : %n] {
  ^bb0(%v: !stn.point<Vertex>):
    %s = stn.reduce sum over @V2E at %v : !stn.point<Vertex> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %g = stn.load %w[%v, nbr %j] : !stn.field<Vertex x V2E[6] x f64>
      %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      %p = arith.mulf %g, %x : f64
      stn.yield %p : f64
    }
    %m = stn.reduce min over @V2E at %v : !stn.point<Vertex> -> f64 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %vn[%e, k] : !stn.field<Edge x K x f64>
      stn.yield %x : f64
    }
    %r = arith.addf %s, %m : f64
    stn.write %r to %rot at %v : !stn.point<Vertex> : f64, !stn.field<Vertex x K x f64>
  }
  stn.return
}

stn.program @folds(%a: !stn.field<Edge x f32> {stn.name = "a"},
    %g: !stn.field<Cell x C2E[3] x i32> {stn.name = "g"},
    %out: !stn.field<Cell x f32> {stn.intent = 1 : i32, stn.name = "out"},
    %idx: !stn.field<Cell x i32> {stn.intent = 1 : i32, stn.name = "idx"},
    %flag: !stn.field<Cell x i1> {stn.intent = 1 : i32, stn.name = "flag"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  stn.kernel "folds" on Cell[%lo : %hi] {
  ^bb0(%c: !stn.point<Cell>):
    %s1 = arith.constant 1 : index
    %s2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %p = stn.reduce prod over @C2E at %c : !stn.point<Cell> -> i32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %g[%c, nbr %j] : !stn.field<Cell x C2E[3] x i32>
      stn.yield %x : i32
    }
    %n1 = stn.neighbor %c through @C2E2C [%s1] : !stn.point<Cell> -> !stn.point<Cell>
    %mx = stn.reduce max over @C2E at %n1 : !stn.point<Cell> -> f32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %x = stn.load %a[%e] : !stn.field<Edge x f32>
      stn.yield %x : f32
    }
    %slots = stn.reduce max over @C2E at %c : !stn.point<Cell> -> i32 {
    ^bb0(%j: index, %e: !stn.point<Edge>):
      %ji = arith.index_cast %j : index to i32
      stn.yield %ji : i32
    }
    %n2 = stn.neighbor %n1 through @C2E2C [%s2] : !stn.point<Cell> -> !stn.point<Cell>
    %ok = stn.valid %n2 : !stn.point<Cell>
    %v = arith.select %ok, %mx, %zero : f32
    stn.write %v to %out at %c : !stn.point<Cell> : f32, !stn.field<Cell x f32>
    %i = stn.index %n2 : !stn.point<Cell>
    %pi = arith.addi %p, %i : i32
    %sum = arith.addi %pi, %slots : i32
    stn.write %sum to %idx at %c : !stn.point<Cell> : i32, !stn.field<Cell x i32>
    %here = stn.valid %c : !stn.point<Cell>
    stn.write %here to %flag at %c : !stn.point<Cell> : i1, !stn.field<Cell x i1>
  }
  stn.return
}

stn.program @levels(%limit: !stn.field<K x f64> {stn.name = "limit"},
    %scaled: !stn.field<K x f64> {stn.intent = 1 : i32, stn.name = "scaled"},
    %w: !stn.field<Cell x KHalf x f64> {stn.intent = 2 : i32, stn.name = "w"},
    %area: !stn.field<Cell x f64> {stn.name = "area"},
    %area2: !stn.field<Cell x f64> {stn.intent = 1 : i32, stn.name = "area2"},
    %vn: !stn.field<Edge x K x f64> {stn.intent = 1 : i32, stn.name = "vn"},
    %cells: i32 {stn.name = "cells"}, %edges: i32 {stn.name = "edges"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %n1 = arith.addi %n, %c1 : i32
  %nm1 = arith.subi %n, %c1 : i32
  stn.kernel "profile" on K[%c0 : %nm1] {
    %l = stn.load %limit[k + 1] : !stn.field<K x f64>
    %half = arith.constant 0.5 : f64
    %s = arith.mulf %l, %half : f64
    stn.write %s to %scaled : f64, !stn.field<K x f64>
  }
  stn.kernel "interfaces" on Cell[%c0 : %cells] K[%c0 : %n1] {
  ^bb0(%c: !stn.point<Cell>):
    %k = stn.level
    %kf = arith.sitofp %k : i32 to f64
    stn.write %kf to %w at %c : !stn.point<Cell> : f64, !stn.field<Cell x KHalf x f64>
  }
  stn.kernel "blocked" on Edge[%c0 : %edges] K[%c0 : %nm1] attributes {kblock = 4} {
  ^bb0(%e: !stn.point<Edge>):
    %s0 = arith.constant 0 : index
    %c = stn.neighbor %e through @E2C [%s0] : !stn.point<Edge> -> !stn.point<Cell>
    %a = stn.load %area[%c] : !stn.field<Cell x f64>
    %x = stn.load %w[%c, k + 1] : !stn.field<Cell x KHalf x f64>
    %v = arith.mulf %x, %a : f64
    stn.write %v to %vn at %e : !stn.point<Edge> : f64, !stn.field<Edge x K x f64>
  }
  stn.kernel "flat" on Cell[%c0 : %cells] {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %area[%c] : !stn.field<Cell x f64>
    %d = arith.addf %a, %a : f64
    stn.write %d to %area2 at %c : !stn.point<Cell> : f64, !stn.field<Cell x f64>
  }
  stn.return
}

stn.program @smooth(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
    %geofac: !stn.field<Cell x C2E2CO[4] x f64> {stn.intent = 2 : i32, stn.name = "geofac"},
    %full: i1 {stn.name = "full"}, %top: i1 {stn.name = "top"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %tmp = stn.alloc {name = "tmp"} : !stn.field<Cell x K x f64>
  %limiter = stn.alloc {name = "limiter"} : !stn.field<Edge x f32>
  %ilo, %ihi = stn.image %lo, %hi through @C2E2CO
  %last = arith.subi %n, %c1 : i32
  %start = scf.if %full -> i32 {
    stn.kernel "lap" on Cell[%ilo : %ihi] K[%c0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %t = stn.load %theta[%c, k] : !stn.field<Cell x K x f64>
      %v = scf.if %top -> f64 {
        scf.yield %t : f64
      } else {
        %s = stn.reduce sum over @C2E2CO at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %n2: !stn.point<Cell>):
          %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
          %x = stn.load %theta[%n2, k] : !stn.field<Cell x K x f64>
          %p = arith.mulf %g, %x : f64
          stn.yield %p : f64
        }
        scf.yield %s : f64
      }
      %lvl = stn.level
      %zero = arith.constant 0 : i32
      %first = arith.cmpi eq, %lvl, %zero : i32
      scf.if %first {
        stn.write %v to %tmp at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      %two = arith.constant 2.0 : f64
      %d = arith.mulf %v, %two : f64
      stn.write %d to %tmp at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    scf.yield %c0 : i32
  } else {
    scf.yield %last : i32
  }
  stn.kernel "copy" on Cell[%lo : %hi] K[%start : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %t = stn.load %tmp[%c, k] : !stn.field<Cell x K x f64>
    stn.write %t to %theta at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "limit" on Edge[%lo : %hi] {
  ^bb0(%e: !stn.point<Edge>):
    %s0 = arith.constant 0 : index
    %c = stn.neighbor %e through @E2C [%s0] : !stn.point<Edge> -> !stn.point<Cell>
    %g = stn.load %geofac[%c, nbr %s0] : !stn.field<Cell x C2E2CO[4] x f64>
    %f = arith.truncf %g : f64 to f32
    stn.write %f to %limiter at %e : !stn.point<Edge> : f32, !stn.field<Edge x f32>
  }
  stn.exchange %theta, %limiter, %geofac : !stn.field<Cell x K x f64>, !stn.field<Edge x f32>, !stn.field<Cell x C2E2CO[4] x f64>
  stn.return
}

stn.program @mixed(%t32: !stn.field<Cell x K x f32> {stn.name = "t32"},
    %t64: !stn.field<Cell x K x f64> {stn.name = "t64"},
    %idx: !stn.field<Cell x K x i32> {stn.name = "level_idx"},
    %mask: !stn.field<Cell x K x i1> {stn.name = "mask"},
    %out_mask: !stn.field<Cell x K x i1> {stn.intent = 1 : i32, stn.name = "out_mask"},
    %out32: !stn.field<Cell x K x f32> {stn.intent = 1 : i32, stn.name = "out32"},
    %out64: !stn.field<Cell x K x f64> {stn.intent = 1 : i32, stn.name = "out64"},
    %gain: f32 {stn.name = "gain"}, %shift: i32 {stn.name = "shift"},
    %cells: i32 {stn.name = "cells"}) {
  %c0 = arith.constant 0 : i32
  %n = stn.nlev : i32
  stn.kernel "mixed" on Cell[%c0 : %cells] K[%c0 : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %a = stn.load %t32[%c, k] : !stn.field<Cell x K x f32>
    %b = stn.load %t64[%c, k] : !stn.field<Cell x K x f64>
    %i = stn.load %idx[%c, k] : !stn.field<Cell x K x i32>
    %m = stn.load %mask[%c, k] : !stn.field<Cell x K x i1>
    %sa = math.sqrt %a : f32
    %sb = math.sqrt %b : f64
    %mina = arith.minnumf %sa, %gain : f32
    %tiny = arith.constant 1.0e-300 : f64
    %maxb = arith.maxnumf %sb, %tiny : f64
    %e15 = arith.constant 1.5 : f32
    %pa = math.powf %mina, %e15 : f32
    %e01 = arith.constant 0.1 : f64
    %pb = math.powf %maxb, %e01 : f64
    %wa = arith.extf %pa : f32 to f64
    %sum = arith.addf %wa, %pb : f64
    %narrow = arith.truncf %sum : f64 to f32
    %ex = math.exp %sum : f64
    %lg = math.log %ex : f64
    %ab = math.absf %lg : f64
    %fl = math.floor %narrow : f32
    %ce = math.ceil %fl : f32
    %rs = math.rsqrt %ab : f64
    %negzero = arith.constant -0.0 : f64
    %mx = arith.maximumf %rs, %negzero : f64
    %pw = math.fpowi %mx, %shift : f64, i32
    %is = arith.addi %i, %shift : i32
    %two = arith.constant 2 : i32
    %fd = arith.floordivsi %is, %two : i32
    %three = arith.constant 3 : i32
    %rm = arith.remsi %fd, %three : i32
    %minus1 = arith.constant -1 : i32
    %lt = arith.cmpi slt, %rm, %minus1 : i32
    %ult = arith.cmpf ult, %pw, %pb : f64
    %uno = arith.cmpf uno, %pw, %pb : f64
    %or = arith.ori %lt, %ult : i1
    %and = arith.andi %or, %m : i1
    %xor = arith.xori %and, %uno : i1
    %signed = arith.sitofp %xor : i1 to f64
    %ninf = arith.constant 0xFF800000 : f32
    %sel = arith.select %xor, %ce, %ninf : f32
    %neg = arith.negf %sel : f32
    %r25 = arith.constant 2.5 : f32
    %rem = arith.remf %neg, %r25 : f32
    %u = arith.uitofp %i : i32 to f64
    %tot = arith.addf %signed, %u : f64
    stn.write %xor to %out_mask at %c : !stn.point<Cell> : i1, !stn.field<Cell x K x i1>
    stn.write %rem to %out32 at %c : !stn.point<Cell> : f32, !stn.field<Cell x K x f32>
    stn.write %tot to %out64 at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.return
}

"""Prints what ptxas gave each kernel of a cubin, from the ELF's .nv.info
section (no GPU, no cuobjdump): `KERNEL regs R frame F`, F being the
bytes of local memory a thread's frame takes (spills).  The entries are
(format 4: a 16-bit size, then the symbol index and a 32-bit value):
0x2f the register count, 0x11 the frame size.

Usage: python3 cubin_usage.py FILE.cubin"""
import struct
import sys

REGCOUNT, FRAME_SIZE = 0x2F, 0x11


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx][4]
    for h in heads:
        name = elf[names + h[0]:elf.index(b"\0", names + h[0])].decode()
        yield name, h


def main(path):
    elf = open(path, "rb").read()
    secs = dict(sections(elf))
    symtab = secs[".symtab"]
    strtab = secs[".strtab"][4]
    usage = {}
    info = secs[".nv.info"]
    p, end = info[4], info[4] + info[5]
    while p < end:
        fmt, attr = elf[p], elf[p + 1]
        if fmt != 4:
            raise SystemExit(f"{path}: .nv.info entry of format {fmt}, expected 4")
        size, = struct.unpack_from("<H", elf, p + 2)
        if attr in (REGCOUNT, FRAME_SIZE):
            sym, value = struct.unpack_from("<II", elf, p + 4)
            usage.setdefault(sym, {})[attr] = value
        p += 4 + size
    for sym, u in sorted(usage.items()):
        name_off, = struct.unpack_from("<I", elf, symtab[4] + sym * symtab[9])
        name = elf[strtab + name_off:elf.index(b"\0", strtab + name_off)].decode()
        print(f"{name} regs {u.get(REGCOUNT, -1)} frame {u.get(FRAME_SIZE, -1)}")


if __name__ == "__main__":
    main(sys.argv[1])

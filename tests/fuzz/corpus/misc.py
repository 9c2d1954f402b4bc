# -*- coding: utf-8 -*-
class Helper:
    def __init__(self, *args, **kw):
        self.x = [i for i in range(3)]
        raise $ ValueError

if __name__ == "__main__":
	main(r"raw\n", b'bytes', f"{x}", '''triple
quoted''', "esc\x41\u00e9\n")

@mt.jit(num_warps=4)
def k(x, y=2, *, z):
    with ctx():
        pass
    try:
        pass
    except Exception:
        pass
    a = lambda q: q + 1
    b = {1: 2, **c}
    x[...] = a @ b
    while (n := 3) and not x or y ^ z | ~w >> 2 << 1 // 3 % 4:
        break
    else:
        pass
    assert x, "msg"
    del x; global y
    return

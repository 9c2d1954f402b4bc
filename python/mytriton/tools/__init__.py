"""triton.tools: the host-side helpers kernels take as arguments."""

"""SFT spread over processes on one machine: data-parallel, one torch thread each.

    final, losses = spread(fn, 2, kwargs)   # fn(**kwargs) in 2 processes: rank 0's return

On a small CPU model, two threads in one process share each matrix product and meet
at every op; on a busy machine the one that waits for the other makes a step several
times slower. Two processes of one thread each split the batch instead and meet once a
step, to average their gradients (DDP over gloo, bound to 127.0.0.1). The Trainer sees
the usual variables (`RANK`, `WORLD_SIZE`, `MASTER_ADDR`, ...) and does the rest: the
length-grouped sampler split between ranks, checkpoints and the final model written by
rank 0. Rank 0's result comes back to the caller; an error in any rank raises here.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable
from typing import Any

HOST = "127.0.0.1"


def ranks(asked: int) -> int:
    """How many processes to spread SFT over when `asked`: 1 where a launcher
    (`accelerate launch`, torchrun) already started several, or a GPU does the work."""
    import torch

    launched = int(os.environ.get("WORLD_SIZE", "1")) > 1
    return 1 if launched or torch.cuda.is_available() else max(1, asked)


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rank_environment(rank: int, world: int, port: int, threads: int = 1) -> dict[str, str]:
    """The variables torch.distributed and the Trainer read in rank `rank` of `world`."""
    env = {"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(world),
           "LOCAL_WORLD_SIZE": str(world), "MASTER_ADDR": HOST, "MASTER_PORT": str(port),
           "OMP_NUM_THREADS": str(max(1, threads))}
    if sys.platform.startswith("linux"):  # gloo's own pick may be a public interface
        env["GLOO_SOCKET_IFNAME"] = os.environ.get("GLOO_SOCKET_IFNAME", "lo")
    return env


def spread(fn: Callable[..., Any], world: int, kwargs: dict[str, Any],
           threads: int = 1) -> Any:
    """`fn(**kwargs)` in `world` fresh processes of `threads` torch threads each, joined
    as one data-parallel group; what rank 0's call returned."""
    import pickle
    import tempfile
    from pathlib import Path

    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory(prefix="phoneworld-spread-") as tmp:
        result = Path(tmp) / "rank0.pickle"
        mp.spawn(_rank_main, args=(world, free_port(), threads, fn, kwargs, result),
                 nprocs=world, join=True)
        return pickle.loads(result.read_bytes())  # written by our own rank 0


def _rank_main(rank: int, world: int, port: int, threads: int, fn: Callable[..., Any],
               kwargs: dict[str, Any], result: Any) -> None:
    os.environ.update(rank_environment(rank, world, port, threads))
    import torch

    torch.set_num_threads(max(1, threads))
    out = fn(**kwargs)
    if rank == 0:
        import pickle

        result.write_bytes(pickle.dumps(out))
    import torch.distributed as dist

    if dist.is_initialized():
        dist.destroy_process_group()

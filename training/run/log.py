"""What every trainer logs, in one place: TensorBoard scalars, ``progress.csv``, a
progress bar, and on ``--resume`` the rows a killed run logged after its last checkpoint
dropped (so the logs continue exactly where the restored counters do).  Also the shared
``tyro`` entry point of the trainers."""

from __future__ import annotations

import csv
import dataclasses
import io
from pathlib import Path

from meeplezoo.training.run.checkpoint import atomic_write


def truncate_log(csv_path: Path, last_update: int) -> None:
    """Keep the CSV rows up to ``last_update`` (rewritten atomically)."""
    if not csv_path.exists():
        return
    with csv_path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        return
    header, body = rows[0], [r for r in rows[1:] if r and int(r[0]) <= last_update]
    text = io.StringIO(newline="")
    csv.writer(text).writerows([header, *body])
    atomic_write(csv_path, lambda file: file.write(text.getvalue().encode()))


class RunLog:
    """One run's logs.  ``key`` names the counter that numbers rows (first CSV column);
    ``step`` is the TensorBoard step of a row.  With ``minutes`` > 0 the bar counts
    training seconds (so its ETA means something), else ``total`` units of ``key``."""

    def __init__(self, folder: Path, options, counters: dict, key: str, step_key: str,
                 total: int, unit: str, desc: str, resume: bool, progress: bool):
        from torch.utils.tensorboard import SummaryWriter

        self.counters, self.key, self.step_key = counters, key, step_key
        self.writer = SummaryWriter(str(folder), purge_step=counters[step_key] + 1
                                    if resume else None)
        if not resume:
            self.writer.add_text("options", "\n".join(
                f"- {k}: {v}" for k, v in dataclasses.asdict(options).items()))
        self.csv_path, self.eval_path = folder / "progress.csv", folder / "eval.csv"
        if resume:
            truncate_log(self.csv_path, counters[key])
            truncate_log(self.eval_path, counters[key])
        self.csv_file = self.csv_path.open("a", newline="")
        self.csv_writer = None
        self.timed = options.minutes > 0
        self.bar = None
        if progress:
            from tqdm import tqdm

            self.bar = tqdm(total=round(options.minutes * 60) if self.timed else total,
                            initial=round(counters["elapsed_s"]) if self.timed else
                            counters[step_key if unit == "step" else key],
                            unit="s" if self.timed else unit, dynamic_ncols=True, desc=desc)

    def write(self, row: dict, advance: int, **postfix) -> None:
        """Log ``row`` (its first key is ``key``); move the bar ``advance`` units."""
        for name, value in row.items():
            if name not in (self.key, self.step_key):
                self.writer.add_scalar(f"train/{name}", value, self.counters[self.step_key])
        if self.csv_writer is None:
            # A resumed run keeps the columns its file has (a run resumed with --ray adds
            # columns a local one lacks): extra keys are left out, missing ones empty.
            with self.csv_path.open(newline="") as handle:
                header = next(csv.reader(handle), None)
            self.csv_writer = csv.DictWriter(self.csv_file, fieldnames=header or list(row),
                                             restval="", extrasaction="ignore")
            if not header:
                self.csv_writer.writeheader()
        self.csv_writer.writerow(row)
        self.csv_file.flush()
        if self.bar is not None:
            self.bar.update(round(self.counters["elapsed_s"]) - self.bar.n if self.timed
                            else advance)
            self.bar.set_postfix(**postfix)

    def say(self, text: str) -> None:
        """A line above the progress bar (printed plainly without one)."""
        if self.bar is not None:
            self.bar.write(text)
        else:
            print(text, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.writer.close()
        self.csv_file.close()


def budget_used(done: float, total: float, elapsed_s: float, minutes: float) -> float:
    """The share of a run's budget spent: ``done`` of ``total`` (updates, steps), or the
    training time against ``minutes`` when that is set and further along."""
    used = done / total
    if minutes > 0:
        used = max(used, elapsed_s / (minutes * 60))
    return used


def tyro_main(options_class, train, argv, prog: str, description: str, summary) -> int:
    """Parse ``argv`` (a leading game name is read as ``--game``), train, print
    ``summary(result)``."""
    import tyro

    argv = list(argv or [])
    if argv and not argv[0].startswith("-"):
        argv = ["--game", argv[0], *argv[1:]]
    options = parse_options(tyro, options_class, argv, prog, description)
    print(summary(train(options)))
    return 0


def parse_options(tyro, options_class, argv: list[str], prog: str, description: str):
    """``tyro.cli``, with a bad flag turned into one ``ValueError`` line (the CLI prints
    ``meeplezoo: error: ...`` and exits 2) instead of tyro's framed multi-line message;
    ``--help`` prints as usual."""
    import contextlib
    import io
    import re

    caught = io.StringIO()
    try:
        with contextlib.redirect_stderr(caught):
            return tyro.cli(options_class, args=argv, prog=prog, description=description)
    except SystemExit as exit_:
        if exit_.code in (0, None):
            raise
        text = caught.getvalue()
    # The message is the framed box's first line of text (after its title bar).
    lines = [re.sub(r"^[\s│┃|]+|[\s│┃|]+$", "", line) for line in text.splitlines()]
    lines = [line for line in lines if line and not set(line) <= set("─━╭╮╰╯┏┓┗┛-=")
             and not line.startswith(("╭", "┏"))]
    first = lines[0] if lines else "bad arguments"
    raise ValueError(f"{first} (see {prog} --help)") from None


def torch_setup(options):
    """(device, numpy generator): torch threads, a CUDA check, every seed set."""
    import random

    import numpy as np
    import torch

    if options.torch_threads:
        torch.set_num_threads(options.torch_threads)
    if options.device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("--device cuda asked for, but torch sees no CUDA device")
    random.seed(options.seed)
    torch.manual_seed(options.seed)
    return torch.device(options.device), np.random.default_rng(options.seed)


def resume_or_refuse(options, checkpoint_path: Path, meta: dict, network, optimizer,
                     counters: dict, np_rng, device) -> bool:
    """With ``--resume``: weights, optimizer, counters and generators from the checkpoint
    (True).  Without: refuse to overwrite an existing run (False if there is none)."""
    from meeplezoo.training.run.checkpoint import load_checkpoint, load_weights, restore_rng

    if options.resume:
        payload = load_checkpoint(checkpoint_path, expect=meta, map_location=device)
        load_weights(network, payload["model"], checkpoint_path)
        optimizer.load_state_dict(payload["optimizer"])
        # the optimizer's state dict carries the learning rate it was saved with; the
        # options of this invocation are what the user asked the resumed run to use
        for group in optimizer.param_groups:
            group["lr"] = options.learning_rate
            if hasattr(options, "weight_decay"):
                group["weight_decay"] = options.weight_decay
        counters.update(payload["counters"])
        restore_rng(payload, np_rng)
        return True
    if checkpoint_path.exists():
        raise ValueError(f"{checkpoint_path} exists: pass --resume to continue that run, or "
                         f"choose another --run-name")
    return False

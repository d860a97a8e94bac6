"""Train a Dental Companion detector from scratch, evaluate it, and export it to ONNX.

Two kinds: panoramic X-rays (`--kind xray`, the default) and intra-oral colour photos
(`--kind photo`). One entry point for the whole path:
  1. writes the kind's split file (training/split.json, split-photos.json) if it is missing;
  2. trains a compact anchor-free detector on the train split for a wall-clock budget
     (--max-minutes, evaluation and export included), checkpointing every epoch to
     training/runs/<name>/last.pt (model, EMA, optimizer) and keeping the best EMA weights by
     validation AP50 in best.pt; --resume continues an interrupted run (from last.pt, or without
     last.pt from the committed warm.pt or best.pt: see warm_start);
  3. evaluates best.pt on the held-out test split (AP50 and AP50-95 per class, with bootstrap
     95 % intervals) and writes <models-dir>/<name>.metrics.json;
  4. exports <models-dir>/<name>.onnx (YOLOv8 layout) and <name>.labels.json, and verifies the graph.

Example: OMP_WAIT_POLICY=PASSIVE nice -n 19 /usr/bin/python3 training/train.py --max-minutes 100
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import time
from pathlib import Path

import torch
from torch import nn

from common import KINDS, MODELS_DIR, RUNS_DIR, Kind, load_split
from data import DetectionDataset, collate, epoch_indices, repeat_factors
from evaluate import build_model, checkpoint_kind, evaluate, load_model, table
from export_onnx import export
from loss import DetectionLoss
from model import anchor_points, decode, flatten
from prepare_split import prepare

# Resamples of the test images for the 95 % intervals of the reported AP.
BOOTSTRAP_SAMPLES = 1000
DEFAULT_NAMES = {'xray': 'dental-xray-4class', 'photo': 'dental-photo-2class'}

# Kept free of the training budget for the test evaluation and the export.
FINISH_RESERVE_S = 180
WARMUP_ITERATIONS = 300
FINAL_LR_FRACTION = 0.05


class ModelEma:
    """Exponential moving average of the weights, the ones that are evaluated and exported.

    The decay ramps up over the first updates so the average is not dominated by the random
    initialisation.
    """

    def __init__(self, model: nn.Module, decay: float, ramp: float) -> None:
        self.model = copy.deepcopy(model).eval()
        for parameter in self.model.parameters():
            parameter.requires_grad_(False)
        self.decay = decay
        self.ramp = ramp
        self.updates = 0

    @torch.no_grad()
    def update(self, model: nn.Module) -> None:
        self.updates += 1
        decay = self.decay * (1 - math.exp(-self.updates / self.ramp))
        source = model.state_dict()
        for name, value in self.model.state_dict().items():
            if value.dtype.is_floating_point:
                value.mul_(decay).add_(source[name].detach(), alpha=1 - decay)
            else:
                value.copy_(source[name])


def work_seconds() -> float:
    """The CPU time the run has had, divided by its threads: the clock of the training budget.
    On an idle machine it runs about as fast as the wall clock; at `nice -n 19` beside other work
    it slows with the CPU the run gets, so a busy hour does not spend the budget (and with it the
    learning-rate schedule) on a handful of steps."""
    return time.process_time() / torch.get_num_threads()


def learning_rate(base: float, iteration: int, progress: float) -> float:
    """Linear warm-up over the first iterations, then cosine decay over the time budget."""
    warmup = min(1.0, 0.1 + 0.9 * iteration / WARMUP_ITERATIONS)
    cosine = FINAL_LR_FRACTION + (1 - FINAL_LR_FRACTION) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return base * warmup * cosine


def parameter_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    """Weight decay on convolution weights only, not on biases or batch-norm scales."""
    decay, no_decay = [], []
    for parameter in model.parameters():
        (decay if parameter.ndim > 1 else no_decay).append(parameter)
    return [{'params': decay, 'weight_decay': weight_decay}, {'params': no_decay, 'weight_decay': 0.0}]


class Logger:
    """Prints and appends to the run's train.log, so a resumed run continues the same log."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, message: str) -> None:
        print(message, flush=True)
        with self.path.open('a') as handle:
            handle.write(message + '\n')


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--kind', choices=sorted(KINDS), default='xray', help='panoramic X-rays or intra-oral colour photos')
    parser.add_argument('--name', help='run name: training/runs/<name>, models/<name>.onnx (default: by kind, '
                        + ', '.join(f'{kind} {name}' for kind, name in DEFAULT_NAMES.items()) + ')')
    parser.add_argument('--dataset', type=Path, help='dataset root (default: the kind\'s folder under ../shared/datasets)')
    parser.add_argument('--max-minutes', type=float, default=100.0, help='wall-clock budget of the run, evaluation and export included')
    parser.add_argument('--epochs', type=int, default=300, help='upper bound on epochs (the time budget usually ends first)')
    parser.add_argument('--imgsz', type=int, default=288, help='square input size, a multiple of 32')
    parser.add_argument('--batch', type=int, default=8)
    parser.add_argument('--lr', type=float, default=2e-3, help='peak AdamW learning rate')
    parser.add_argument('--weight-decay', type=float, default=5e-4)
    parser.add_argument('--width', type=int, nargs=5, default=[12, 16, 32, 64, 128], help='channels of the five backbone stages')
    parser.add_argument('--depth', type=int, default=1, help='bottlenecks per CSP block (doubled in stages 3 and 4)')
    parser.add_argument('--repeat-threshold', type=float, default=0.5, help='repeat-factor sampling threshold (0 disables)')
    parser.add_argument('--limit-images', type=int, default=0, help='use only the first N train/val/test images (smoke tests)')
    parser.add_argument('--models-dir', type=Path, default=MODELS_DIR, help='where the ONNX file, labels.json and metrics go')
    parser.add_argument('--resume', action='store_true', help='continue from <runs-dir>/<name>/last.pt')
    parser.add_argument('--runs-dir', type=Path, default=RUNS_DIR,
                        help='where the run keeps last.pt, best.pt and train.log (default training/runs, not committed; '
                        'training/checkpoints, whose best.pt and train.log are committed and last.pt is not)')
    parser.add_argument('--finish', action='store_true',
                        help='with --resume: evaluate the run\'s best.pt on the test split and export it now, without training '
                        'further (a run that spans sessions, shipped before its budget is spent; a later --resume goes on)')
    parser.add_argument('--budget-minutes', type=float,
                        help='with --resume: a new training budget for the run (one that must end sooner than planned); '
                        'the cosine schedule goes on from the share of the new budget already spent, so the learning '
                        'rate steps down once')
    parser.add_argument('--threads', type=int, default=2, help='CPU threads for PyTorch')
    parser.add_argument('--seed', type=int, default=0)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    started = time.monotonic()
    torch.set_num_threads(args.threads)
    args.name = args.name or DEFAULT_NAMES[args.kind]
    run_dir = args.runs_dir / args.name
    run_dir.mkdir(parents=True, exist_ok=True)
    log = Logger(run_dir / 'train.log')
    checkpoint = torch.load(run_dir / 'last.pt', map_location='cpu') if args.resume and (run_dir / 'last.pt').exists() else None
    warm = warm_start(run_dir) if args.resume and checkpoint is None else None
    if args.resume and checkpoint is None and warm is None:
        raise SystemExit(f'Nothing to resume in {run_dir}: no last.pt, warm.pt or best.pt.')
    checkpoint = checkpoint or warm
    config = checkpoint['config'] if checkpoint else {
        'kind': args.kind, 'imgsz': args.imgsz, 'batch': args.batch, 'lr': args.lr, 'weight_decay': args.weight_decay,
        'width': args.width, 'depth': args.depth, 'repeat_threshold': args.repeat_threshold,
        'epochs': args.epochs, 'seed': args.seed, 'limit_images': args.limit_images,
    }
    kind = checkpoint_kind(config)
    args.dataset = args.dataset or kind.dataset
    if not kind.split_file.exists():
        prepare(kind, args.dataset)
    split = load_split(kind.split_file)
    if config['limit_images']:
        split = {name: images[: config['limit_images']] for name, images in split.items()}
    random.seed(config['seed'])
    torch.manual_seed(config['seed'])
    train_set = DetectionDataset(kind, args.dataset, split['train'], config['imgsz'], augment=True)
    val_set = DetectionDataset(kind, args.dataset, split['val'], config['imgsz'], augment=False)
    log(f'{len(train_set)} train / {len(val_set)} val images at {config["imgsz"]} px, loaded in {time.monotonic() - started:.0f} s')

    model = build_model(config)
    optimizer = torch.optim.AdamW(parameter_groups(model, config['weight_decay']), lr=config['lr'], betas=(0.9, 0.999))
    ema = ModelEma(model, decay=0.998, ramp=300)
    state = {'epoch': 0, 'iteration': 0, 'train_seconds': 0.0, 'best_fitness': -1.0, 'history': []}
    # The budget is fixed at the first start so the learning-rate schedule survives a resume.
    budget_s = args.max_minutes * 60 - FINISH_RESERVE_S - (time.monotonic() - started)
    if checkpoint:
        model.load_state_dict(checkpoint['model'])
        ema.model.load_state_dict(checkpoint['ema'])
        ema.updates = checkpoint['ema_updates']
        state = {key: checkpoint[key] for key in state}
        budget_s = checkpoint.get('budget_s', budget_s)
        if args.budget_minutes:
            log(f'training budget changed from {budget_s / 60:.1f} to {args.budget_minutes:.1f} min')
            budget_s = args.budget_minutes * 60
        if 'optimizer' in checkpoint:
            optimizer.load_state_dict(checkpoint['optimizer'])
            random.setstate(checkpoint['python_rng'])
            torch.set_rng_state(checkpoint['torch_rng'])
        restart = '' if 'optimizer' in checkpoint else f' from {checkpoint["source"]} (optimizer state fresh, warm-up again)'
        log(f'resumed after epoch {state["epoch"]}{restart}, {state["train_seconds"] / 60:.1f} of {budget_s / 60:.1f} training minutes used')
    else:
        log(f'config {json.dumps(config)}; training budget {budget_s / 60:.1f} min')
    log(f'{sum(p.numel() for p in model.parameters()) / 1e6:.2f} M parameters')
    if args.finish:
        finish(args, kind, run_dir, split, state, log)
        return

    points, strides = anchor_points(config['imgsz'])
    criterion = DetectionLoss()
    factors = repeat_factors(train_set, config['repeat_threshold']) if config['repeat_threshold'] > 0 else [1.0] * len(train_set)
    rng = random.Random(config['seed'] + state['epoch'])
    last_epoch_s = 0.0
    while state['epoch'] < config['epochs']:
        if state['train_seconds'] + last_epoch_s > budget_s:
            log('time budget reached')
            break
        epoch_start = work_seconds()
        model.train()
        order = epoch_indices(factors, rng)
        sums = {'box': 0.0, 'cls': 0.0}
        batches = 0
        for start in range(0, len(order) - config['batch'] + 1, config['batch']):
            elapsed = state['train_seconds'] + work_seconds() - epoch_start
            if elapsed > budget_s:
                break
            lr = learning_rate(config['lr'], state['iteration'], elapsed / budget_s)
            for group in optimizer.param_groups:
                group['lr'] = lr
            images, targets, mask = collate([train_set[i] for i in order[start : start + config['batch']]])
            ltrb, logits = flatten(model(images))
            loss, parts = criterion(logits, decode(ltrb, points, strides), points, targets, mask)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 10.0)
            optimizer.step()
            ema.update(model)
            state['iteration'] += 1
            batches += 1
            for key in sums:
                sums[key] += parts[key]
        if batches == 0:
            break
        state['epoch'] += 1
        metrics = evaluate(ema.model, val_set)
        last_epoch_s = work_seconds() - epoch_start
        state['train_seconds'] += last_epoch_s
        fitness = metrics['mean']['ap50']
        record = {
            'epoch': state['epoch'], 'seconds': round(last_epoch_s, 1), 'lr': lr,
            'box_loss': sums['box'] / batches, 'cls_loss': sums['cls'] / batches,
            'val_ap50': {name: round(metrics[name]['ap50'], 4) for name in (*kind.class_names, 'mean')},
        }
        state['history'].append(record)
        improved = fitness > state['best_fitness']
        state['best_fitness'] = max(fitness, state['best_fitness'])
        log(
            f'epoch {state["epoch"]:>3} {last_epoch_s:5.0f}s lr {lr:.2e} box {record["box_loss"]:.3f} cls {record["cls_loss"]:.3f} '
            + 'val AP50 ' + ' '.join(f'{name[:8]} {value:.3f}' for name, value in record['val_ap50'].items())
            + f' | {state["train_seconds"] / 60:.1f}/{budget_s / 60:.1f} min' + (' *' if improved else '')
        )
        saved = {
            **state, 'config': config, 'budget_s': budget_s, 'model': model.state_dict(), 'ema': ema.model.state_dict(),
            'ema_updates': ema.updates, 'optimizer': optimizer.state_dict(),
            'python_rng': random.getstate(), 'torch_rng': torch.get_rng_state(),
        }
        torch.save(saved, run_dir / 'last.tmp')
        (run_dir / 'last.tmp').replace(run_dir / 'last.pt')
        torch.save({key: saved[key] for key in (*state, 'config', 'budget_s', 'ema', 'ema_updates')}, run_dir / 'warm.tmp')
        (run_dir / 'warm.tmp').replace(run_dir / 'warm.pt')
        if improved:
            torch.save({key: saved[key] for key in ('epoch', 'config', 'ema', 'history')}, run_dir / 'best.pt')

    finish(args, kind, run_dir, split, state, log)
    log(f'done in {(time.monotonic() - started) / 60:.1f} min of wall time')


def warm_start(run_dir: Path) -> dict | None:
    """The state to go on from when last.pt (weights, EMA, optimizer: over the repository's 5 MB
    limit) did not survive the session: warm.pt, the latest epoch's EMA weights and counters that
    a session commits, or else best.pt. The EMA weights start both the model and its average; the
    optimizer's moments start from zero, so the warm-up is run again (its iteration count restarts)
    instead of taking full steps on unscaled moments. The budget stays the run's: warm.pt keeps
    it; from best.pt it is --max-minutes again."""
    for name in ('warm.pt', 'best.pt'):
        if (run_dir / name).exists():
            saved = torch.load(run_dir / name, map_location='cpu')
            history = saved['history'][: saved['epoch']]
            return {
                **saved, 'source': name, 'model': saved['ema'], 'iteration': 0,
                # best.pt keeps no count; one far past the ramp gives the average its full decay.
                'ema_updates': saved.get('ema_updates', 10_000),
                'train_seconds': saved.get('train_seconds', sum(record['seconds'] for record in history)),
                'best_fitness': saved.get('best_fitness', max(record['val_ap50']['mean'] for record in history)),
                'history': history,
            }
    return None


def finish(args: argparse.Namespace, kind: Kind, run_dir: Path, split: dict[str, list[str]], state: dict, log: Logger) -> None:
    """Evaluate best.pt on the held-out test split, write the metrics, export the model."""
    model, best = load_model(run_dir / 'best.pt')
    test_set = DetectionDataset(kind, args.dataset, split['test'], best['config']['imgsz'], augment=False)
    metrics = evaluate(model, test_set, BOOTSTRAP_SAMPLES)
    log(f'test split, {len(test_set)} images, best epoch {best["epoch"]} of {state["epoch"]}:\n{table(metrics)}')
    args.models_dir.mkdir(parents=True, exist_ok=True)
    report = {
        'model': f'{args.name}.onnx', 'dataset': args.dataset.name, 'split_file': kind.split_file.name,
        'split': 'test', 'images': len(test_set), 'iou_thresholds': '0.50:0.05:0.95', 'bootstrap_samples': BOOTSTRAP_SAMPLES,
        'interpolation': 'COCO 101-point', 'nms_iou': 0.6, 'conf_threshold': 0.001,
        'best_epoch': best['epoch'], 'epochs_trained': state['epoch'],
        'training_minutes': round(state['train_seconds'] / 60, 1), 'config': best['config'], 'classes': metrics,
    }
    metrics_file = args.models_dir / f'{args.name}.metrics.json'
    # The operating points and the product's figures stay those of the weights before until
    # `npm run eval:dental-ai -- --choose --write` measures the new ones: the API keeps its tiers,
    # and the evaluation prints the figures before beside the new.
    earlier = json.loads(metrics_file.read_text()) if metrics_file.exists() else {}
    kept = {key: earlier[key] for key in ('operating_points', 'product') if key in earlier}
    metrics_file.write_text(json.dumps({**report, **kept}, indent=2) + '\n')
    export(run_dir / 'best.pt', args.models_dir / f'{args.name}.onnx')


if __name__ == '__main__':
    main()

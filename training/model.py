"""A compact anchor-free single-stage detector (YOLOv8-like, no distribution focal loss).

Backbone: strided 3x3 convs with CSP (C2f) blocks and SPPF; neck: a small PAN/FPN; head:
decoupled box and class branches at strides 8, 16 and 32. Boxes are regressed as distances
(left, top, right, bottom) from each cell centre, in units of the level's stride.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

STRIDES = (8, 16, 32)


class Conv(nn.Sequential):
    """Conv, batch norm, SiLU."""

    def __init__(self, c_in: int, c_out: int, k: int = 3, s: int = 1) -> None:
        super().__init__(
            nn.Conv2d(c_in, c_out, k, s, k // 2, bias=False),
            nn.BatchNorm2d(c_out, eps=1e-3, momentum=0.03),
            nn.SiLU(inplace=True),
        )


class Bottleneck(nn.Module):
    def __init__(self, c: int, shortcut: bool) -> None:
        super().__init__()
        self.cv1 = Conv(c, c, 3)
        self.cv2 = Conv(c, c, 3)
        self.shortcut = shortcut

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.cv2(self.cv1(x))
        return x + y if self.shortcut else y


class C2f(nn.Module):
    """CSP block: split, a chain of bottlenecks, concatenate every intermediate output."""

    def __init__(self, c_in: int, c_out: int, n: int, shortcut: bool = True) -> None:
        super().__init__()
        self.hidden = c_out // 2
        self.cv1 = Conv(c_in, 2 * self.hidden, 1)
        self.blocks = nn.ModuleList(Bottleneck(self.hidden, shortcut) for _ in range(n))
        self.cv2 = Conv((2 + n) * self.hidden, c_out, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        parts = list(self.cv1(x).chunk(2, 1))
        for block in self.blocks:
            parts.append(block(parts[-1]))
        return self.cv2(torch.cat(parts, 1))


class SPPF(nn.Module):
    """Spatial pyramid pooling (fast): widens the receptive field of the deepest level."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.cv1 = Conv(c, c // 2, 1)
        self.cv2 = Conv(c // 2 * 4, c, 1)
        self.pool = nn.MaxPool2d(5, 1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.cv1(x)
        y1 = self.pool(x)
        y2 = self.pool(y1)
        return self.cv2(torch.cat((x, y1, y2, self.pool(y2)), 1))


class Head(nn.Module):
    """Decoupled box / class branches for one pyramid level."""

    def __init__(self, c_in: int, c_box: int, c_cls: int, num_classes: int, stride: int) -> None:
        super().__init__()
        self.box = nn.Sequential(Conv(c_in, c_box), Conv(c_box, c_box), nn.Conv2d(c_box, 4, 1))
        self.cls = nn.Sequential(Conv(c_in, c_cls), Conv(c_cls, c_cls), nn.Conv2d(c_cls, num_classes, 1))
        # Start with boxes about 2 strides wide per side and a low prior of any class (focal-loss
        # style), so early training is not swamped by confident background scores.
        box_out = self.box[-1]
        cls_out = self.cls[-1]
        assert isinstance(box_out, nn.Conv2d) and isinstance(cls_out, nn.Conv2d)
        nn.init.constant_(box_out.bias, 1.5)
        nn.init.constant_(cls_out.bias, -4.6)
        self.stride = stride

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # softplus keeps distances positive without exp's overflow on a bad step.
        return F.softplus(self.box(x)), self.cls(x)


class Detector(nn.Module):
    """Input: images [B, C, S, S] in 0..1, grey (C = 1) or RGB (C = 3). Output per level: (ltrb in strides, class logits)."""

    def __init__(
        self, num_classes: int, width: tuple[int, int, int, int, int] = (16, 32, 64, 128, 256), depth: int = 1, channels: int = 1
    ) -> None:
        super().__init__()
        c1, c2, c3, c4, c5 = width
        self.num_classes = num_classes
        self.stem = Conv(channels, c1, 3, 2)
        self.stage2 = nn.Sequential(Conv(c1, c2, 3, 2), C2f(c2, c2, depth))
        self.stage3 = nn.Sequential(Conv(c2, c3, 3, 2), C2f(c3, c3, 2 * depth))
        self.stage4 = nn.Sequential(Conv(c3, c4, 3, 2), C2f(c4, c4, 2 * depth))
        self.stage5 = nn.Sequential(Conv(c4, c5, 3, 2), C2f(c5, c5, depth), SPPF(c5))
        self.top_down4 = C2f(c5 + c4, c4, depth, shortcut=False)
        self.top_down3 = C2f(c4 + c3, c3, depth, shortcut=False)
        self.down3 = Conv(c3, c3, 3, 2)
        self.bottom_up4 = C2f(c3 + c4, c4, depth, shortcut=False)
        self.down4 = Conv(c4, c4, 3, 2)
        self.bottom_up5 = C2f(c4 + c5, c5, depth, shortcut=False)
        c_box = max(16, c3 // 2)
        c_cls = max(c3, num_classes)
        self.heads = nn.ModuleList(
            Head(c, c_box, c_cls, num_classes, s) for c, s in zip((c3, c4, c5), STRIDES)
        )

    def forward(self, x: torch.Tensor) -> list[tuple[torch.Tensor, torch.Tensor]]:
        p3 = self.stage3(self.stage2(self.stem(x)))
        p4 = self.stage4(p3)
        p5 = self.stage5(p4)
        t4 = self.top_down4(torch.cat((F.interpolate(p5, scale_factor=2.0, mode='nearest'), p4), 1))
        n3 = self.top_down3(torch.cat((F.interpolate(t4, scale_factor=2.0, mode='nearest'), p3), 1))
        n4 = self.bottom_up4(torch.cat((self.down3(n3), t4), 1))
        n5 = self.bottom_up5(torch.cat((self.down4(n4), p5), 1))
        return [head(level) for head, level in zip(self.heads, (n3, n4, n5))]


def anchor_points(size: int, device: torch.device | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Cell centres [N, 2] in input pixels and each cell's stride [N, 1], level by level."""
    points, strides = [], []
    for stride in STRIDES:
        n = size // stride
        coords = (torch.arange(n, device=device, dtype=torch.float32) + 0.5) * stride
        ys, xs = torch.meshgrid(coords, coords, indexing='ij')
        points.append(torch.stack((xs.reshape(-1), ys.reshape(-1)), 1))
        strides.append(torch.full((n * n, 1), float(stride), device=device))
    return torch.cat(points), torch.cat(strides)


def flatten(outputs: list[tuple[torch.Tensor, torch.Tensor]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-level maps to ltrb distances [B, N, 4] (in strides) and class logits [B, N, C]."""
    ltrb = torch.cat([box.flatten(2) for box, _ in outputs], 2).transpose(1, 2)
    logits = torch.cat([cls.flatten(2) for _, cls in outputs], 2).transpose(1, 2)
    return ltrb, logits


def decode(ltrb: torch.Tensor, points: torch.Tensor, strides: torch.Tensor) -> torch.Tensor:
    """Distances in strides to boxes x1, y1, x2, y2 in input pixels."""
    distances = ltrb * strides
    return torch.cat((points - distances[..., :2], points + distances[..., 2:]), -1)

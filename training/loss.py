"""Task-aligned assignment and the detection loss (BCE on soft targets + CIoU)."""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

EPS = 1e-9


def box_iou_pairwise(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """IoU of boxes a[..., 4] and b[..., 4] (x1, y1, x2, y2), broadcast elementwise."""
    width = (torch.min(a[..., 2], b[..., 2]) - torch.max(a[..., 0], b[..., 0])).clamp(min=0)
    height = (torch.min(a[..., 3], b[..., 3]) - torch.max(a[..., 1], b[..., 1])).clamp(min=0)
    inter = width * height
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    return inter / (area_a + area_b - inter + EPS)


def complete_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """CIoU (Zheng et al. 2020): IoU minus centre-distance and aspect-ratio penalties."""
    iou = box_iou_pairwise(a, b)
    enclosing_w = torch.max(a[..., 2], b[..., 2]) - torch.min(a[..., 0], b[..., 0])
    enclosing_h = torch.max(a[..., 3], b[..., 3]) - torch.min(a[..., 1], b[..., 1])
    diagonal = enclosing_w.pow(2) + enclosing_h.pow(2) + EPS
    centre_distance = ((a[..., 0] + a[..., 2] - b[..., 0] - b[..., 2]).pow(2) + (a[..., 1] + a[..., 3] - b[..., 1] - b[..., 3]).pow(2)) / 4
    w_a, h_a = a[..., 2] - a[..., 0], (a[..., 3] - a[..., 1]).clamp(min=EPS)
    w_b, h_b = b[..., 2] - b[..., 0], (b[..., 3] - b[..., 1]).clamp(min=EPS)
    v = (4 / math.pi**2) * (torch.atan(w_b / h_b) - torch.atan(w_a / h_a)).pow(2)
    with torch.no_grad():
        alpha = v / (v - iou + (1 + EPS))
    return iou - (centre_distance / diagonal + v * alpha)


@torch.no_grad()
def assign(
    scores: torch.Tensor,
    boxes: torch.Tensor,
    points: torch.Tensor,
    gt: torch.Tensor,
    gt_mask: torch.Tensor,
    top_k: int = 10,
    alpha: float = 0.5,
    beta: float = 6.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Task-aligned assigner (TOOD / YOLOv8), simplified.

    For each labelled box, the top_k cells whose centre lies inside it and whose
    score^alpha * IoU^beta is highest become positives; a cell claimed twice goes to the box it
    overlaps most. Targets are soft: one-hot class times the normalised alignment.

    scores [B, N, C] (sigmoid), boxes [B, N, 4] predicted, points [N, 2], gt [B, M, 5]
    (cls, x1, y1, x2, y2), gt_mask [B, M]. Returns target boxes [B, N, 4], target scores
    [B, N, C] and the foreground mask [B, N].
    """
    batch, cells, classes = scores.shape
    gt_cls = gt[..., 0].long()
    gt_box = gt[..., 1:]
    x, y = points[:, 0], points[:, 1]
    inside = (
        (x[None, None] > gt_box[..., 0:1]) & (x[None, None] < gt_box[..., 2:3])
        & (y[None, None] > gt_box[..., 1:2]) & (y[None, None] < gt_box[..., 3:4])
    ) & gt_mask[..., None]  # [B, M, N]
    overlaps = box_iou_pairwise(gt_box[:, :, None, :], boxes[:, None, :, :]).clamp(min=0) * inside
    class_scores = scores.transpose(1, 2).gather(1, gt_cls.clamp(min=0)[..., None].expand(-1, -1, cells))
    alignment = class_scores.pow(alpha) * overlaps.pow(beta) * inside
    top = alignment.topk(min(top_k, cells), dim=2).indices
    chosen = torch.zeros_like(inside).scatter_(2, top, True) & inside
    # A cell claimed by several boxes keeps only the one it overlaps most.
    claims = chosen.sum(1, keepdim=True)
    if (claims > 1).any():
        best = overlaps.argmax(1, keepdim=True)
        only_best = torch.zeros_like(chosen).scatter_(1, best, True)
        chosen = torch.where(claims > 1, only_best & inside, chosen)
    foreground = chosen.any(1)
    owner = chosen.float().argmax(1)  # [B, N]
    target_boxes = gt_box.gather(1, owner[..., None].expand(-1, -1, 4))
    target_cls = gt_cls.gather(1, owner)
    alignment = alignment * chosen
    best_alignment = alignment.amax(2, keepdim=True)
    best_overlap = (overlaps * chosen).amax(2, keepdim=True)
    weight = (alignment * best_overlap / (best_alignment + EPS)).amax(1)  # [B, N]
    target_scores = F.one_hot(target_cls.clamp(min=0), classes).float() * (weight * foreground)[..., None]
    return target_boxes, target_scores, foreground


class DetectionLoss:
    """Sum of the class loss (BCE against the soft targets) and the box loss (1 - CIoU)."""

    def __init__(self, box_gain: float = 7.5, cls_gain: float = 0.5) -> None:
        self.box_gain = box_gain
        self.cls_gain = cls_gain

    def __call__(
        self, logits: torch.Tensor, boxes: torch.Tensor, points: torch.Tensor, gt: torch.Tensor, gt_mask: torch.Tensor
    ) -> tuple[torch.Tensor, dict[str, float]]:
        target_boxes, target_scores, foreground = assign(logits.detach().sigmoid(), boxes.detach(), points, gt, gt_mask)
        normaliser = target_scores.sum().clamp(min=1.0)
        cls_loss = F.binary_cross_entropy_with_logits(logits, target_scores, reduction='sum') / normaliser
        if foreground.any():
            weight = target_scores.sum(-1)[foreground]
            ciou = complete_iou(boxes[foreground], target_boxes[foreground])
            box_loss = ((1.0 - ciou) * weight).sum() / normaliser
        else:
            box_loss = boxes.sum() * 0.0
        total = self.box_gain * box_loss + self.cls_gain * cls_loss
        return total, {'box': float(box_loss), 'cls': float(cls_loss)}

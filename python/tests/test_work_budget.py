"""The work budget of a whole call (issue 28, classes 3 and 4): `max_work=` on the
many-object and motion queries, `DEFAULT_MAX_WORK`, and `BudgetError` past it, raised
before anything is tested."""

import pytest

import pixelhit
from pixelhit import BudgetError


def disc(stage, r, x, y):
    n = stage.add_container(stage.root)
    stage.add_graphic(n, pixelhit.Path.circle(0, 0, r))
    n.x, n.y = x, y
    return n


def square(stage, side, x, y):
    n = stage.add_container(stage.root)
    stage.add_graphic(n, pixelhit.Path.rect(0, 0, side, side))
    n.x, n.y = x, y
    return n


def test_default_is_exported():
    assert pixelhit.DEFAULT_MAX_WORK == 2**26


def test_discs_on_one_spot_are_refused_past_the_work_budget_and_answered_within_it():
    stage = pixelhit.Stage()
    root = stage.root
    # 300 discs of radius 30 on one spot: 44,850 close pairs of 61 x 61 px windows.
    discs = [disc(stage, 30, 100, 100) for _ in range(300)]
    with pytest.raises(BudgetError, match="max_work"):
        stage.contacts_among(discs, root)
    with pytest.raises(BudgetError):
        stage.contacts_between(discs[:150], discs[150:], root)
    with pytest.raises(BudgetError):
        stage.contacts_against(discs[0], discs, root, max_work=1000)
    # Twenty of them: every pair touches (the same disc on the same spot).
    few = discs[:20]
    assert len(stage.contacts_among(few, root)) == 20 * 19 // 2
    # A budget of a few pairs refuses those too; raised, they are answered the same.
    with pytest.raises(BudgetError):
        stage.contacts_among(few, root, max_work=10_000)
    assert len(stage.contacts_among(few, root, max_work=2**40)) == 20 * 19 // 2


def test_motion_queries_take_max_work():
    stage = pixelhit.Stage()
    root = stage.root
    wall = square(stage, 2000, 0, 0)
    bullet = square(stage, 40, 1000, 1000)
    # A 40 px bullet travelling 1,000 px inside a wall: 2,000 poses of 40 x 40 px.
    start = (0, 1000)
    with pytest.raises(BudgetError):
        stage.sweep(bullet, wall, root, a_from=start, max_work=100_000)
    with pytest.raises(BudgetError):
        stage.sweeps_against(bullet, start, [wall], root, max_work=100_000)
    with pytest.raises(BudgetError):
        stage.sweeps_between(root, [(bullet, start)], [wall], max_work=100_000)
    with pytest.raises(BudgetError):
        stage.separation(bullet, wall, root, direction=(1, 0), max_work=100_000)
    # Within the default the bullet meets the wall at once (it starts inside it).
    hit = stage.sweep(bullet, wall, root, a_from=start)
    assert hit is not None and hit.t == 0.0
    # Pushed right out of the wall: its left edge to the wall's right edge, x = 2000, give
    # or take the 1/256 px a pixel covered that little may or may not count.
    d = stage.separation(bullet, wall, root, direction=(1, 0))
    assert 1000 - 1 / 128 <= d <= 1000

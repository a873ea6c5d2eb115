"""solitaire.stats: the one home of wilson and the sign test, checked against scipy and used everywhere."""
import pytest

from solitaire import stats


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (3, 10), (30, 100), (47, 100), (999, 1000)])
def test_wilson_agrees_with_statsmodels_or_scipy(k, n):
    scipy_stats = pytest.importorskip("scipy.stats")
    low, high = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    ours = stats.wilson(k, n, z=float(scipy_stats.norm.ppf(0.975)))
    assert ours == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize("a, b", [(0, 0), (9, 1), (1, 9), (51, 36), (61, 16), (5, 5), (0, 7)])
def test_the_sign_test_is_scipy_s_binomial_test_at_one_half(a, b):
    scipy_stats = pytest.importorskip("scipy.stats")
    want = 1.0 if a + b == 0 else scipy_stats.binomtest(a, a + b, 0.5).pvalue
    assert stats.sign_test(a, b) == pytest.approx(want, rel=1e-9)


def test_bad_counts_get_a_one_line_error():
    with pytest.raises(ValueError, match="k counts the successes"):
        stats.wilson(11, 10)
    with pytest.raises(ValueError, match="must not be negative"):
        stats.sign_test(-1, 3)


def test_every_layer_uses_the_one_home():
    from solitaire import experiments, expert
    from solitaire.lessons import lesson06b
    assert experiments.wilson is stats.wilson and expert.wilson is stats.wilson
    assert lesson06b.sign_test is stats.sign_test


def test_stats_is_pure_python():
    import ast
    import pathlib
    tree = ast.parse(pathlib.Path(stats.__file__).read_text(encoding="utf-8"))
    imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"math", "__future__"}

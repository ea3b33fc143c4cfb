<?php
namespace App\Http;

use App\Models\User;

const VERSION = "1.0";

function helper($x) {
    return $x;
}

interface Renderable {
    public function render(): string;
}

trait Loggable {
    public function log(string $m): void {}
}

class UserController extends Controller implements Renderable {
    use Loggable;

    const LIMIT = 10;
    private $users, $cache;
    protected static ?User $current = null;

    public function __construct(private Repo $repo) {}

    public function render(): string {
        return "";
    }
}

enum Status: string {
    case Active = "a";
    case Closed = "c";
}
